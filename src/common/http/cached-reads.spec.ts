import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { CachedRead, registerCachedReads } from './cached-reads';

class LookupDto {
  id: string;
}

/** Passes digits, refuses anything else, as a DTO rule would. */
const digitsOnly: PipeTransform = {
  transform: (value: Record<string, unknown>, metadata: ArgumentMetadata) => {
    if (metadata.metatype !== LookupDto || typeof value.id !== 'string' || !/^\d+$/.test(value.id)) {
      return Promise.reject(new Error('invalid'));
    }
    return Promise.resolve(value);
  },
};

describe(registerCachedReads.name, () => {
  let fastify: FastifyInstance;
  const handled: string[] = [];

  const read: CachedRead<LookupDto> = {
    url: '/things/:id',
    input: LookupDto,
    handle: (input) => (input.id === '404' ? Promise.reject(new Error('not found')) : Promise.resolve({ data: { id: input.id, via: 'cached read' } })),
  };

  async function build(reads: CachedRead[]): Promise<() => void> {
    fastify = Fastify();
    const answerError = (error: unknown, _request: unknown, reply: FastifyReply): void => {
      handled.push(`error ${(error as Error).message}`);
      void reply.status(418).send({ error: (error as Error).message });
    };
    const assertAttached = registerCachedReads(fastify, { pipe: digitsOnly, answerError }, reads);
    fastify.addHook('onRequest', (request, _reply, done) => {
      handled.push(`onRequest ${request.url}`);
      done();
    });
    fastify.get('/things/:id', () => ({ data: 'router' }));
    fastify.post('/things/:id', () => ({ data: 'router' }));
    fastify.get('/other/:id', () => ({ data: 'router' }));
    await fastify.ready();
    return assertAttached;
  }

  afterEach(async () => {
    handled.length = 0;
    await fastify.close();
  });

  it('answers a valid GET from the handler, after the instance-wide onRequest hooks', async () => {
    (await build([read]))();
    const response = await fastify.inject({ method: 'GET', url: '/things/12?x=1' });
    expect(response.json()).toEqual({ data: { id: '12', via: 'cached read' } });
    expect(handled).toEqual(['onRequest /things/12?x=1']);
  });

  it('answers invalid input and a failing handler itself, through the error answer, running the handler once', async () => {
    let calls = 0;
    const counted: CachedRead<LookupDto> = {
      ...read,
      handle: (input) => {
        calls += 1;
        return read.handle(input);
      },
    };
    await build([counted]);
    const invalid = await fastify.inject({ method: 'GET', url: '/things/abc' });
    expect({ status: invalid.statusCode, body: invalid.json<unknown>() }).toEqual({ status: 418, body: { error: 'invalid' } });
    expect(calls).toBe(0);
    const failing = await fastify.inject({ method: 'GET', url: '/things/404' });
    expect({ status: failing.statusCode, body: failing.json<unknown>() }).toEqual({ status: 418, body: { error: 'not found' } });
    expect(calls).toBe(1);
  });

  it('leaves HEAD and other methods to the router', async () => {
    await build([read]);
    for (const [method, url] of [
      ['HEAD', '/things/12'],
      ['POST', '/things/12'],
    ] as const) {
      const response = await fastify.inject({ method, url });
      expect(response.statusCode).toBe(200);
      if (method !== 'HEAD') {
        expect(response.json()).toEqual({ data: 'router' });
      }
    }
  });

  it('reports a read whose route was never registered', async () => {
    const assertAttached = await build([read, { ...read, url: '/missing/:id' }]);
    expect(assertAttached).toThrow('Cached reads without a route: /missing/:id');
  });
});
