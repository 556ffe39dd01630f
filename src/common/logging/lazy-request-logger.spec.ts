import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { LazyRequestLogger, lazyChildLoggerFactory } from './lazy-request-logger';

function capture(level: string): { logger: FastifyBaseLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

describe(LazyRequestLogger.name, () => {
  it('creates no child for lines below the level, and writes enabled lines with the request bindings', () => {
    const { logger, lines } = capture('warn');
    const child = jest.spyOn(logger, 'child');
    const requestLog = lazyChildLoggerFactory(logger, { reqId: 'req-1' }, {});
    requestLog.info('dropped');
    requestLog.debug({ a: 1 }, 'dropped too');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    requestLog.warn({ detail: 'x' }, 'kept');
    requestLog.error('also kept');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, reqId: 'req-1', detail: 'x', msg: 'kept' }),
      expect.objectContaining({ level: 50, reqId: 'req-1', msg: 'also kept' }),
    ]);
  });

  it('follows the level of its logger, and children carry the request bindings', () => {
    const { logger, lines } = capture('info');
    const requestLog = lazyChildLoggerFactory(logger, { reqId: 'req-2' }, {});
    expect(requestLog.level).toBe('info');
    requestLog.child({ part: 'inner' }).info('nested');
    expect(lines).toEqual([expect.objectContaining({ level: 30, reqId: 'req-2', part: 'inner', msg: 'nested' })]);
  });
});
