import type { Socket } from 'node:net';
import { messages } from '../common/errors/messages';
import { transportErrorHandlers } from './transport-errors';

/** What the handler writes to a socket, parsed: status line and JSON body. */
function answer(code: string): { status: number; body: Record<string, unknown> } {
  let written = '';
  const socket = {
    destroyed: false,
    writable: true,
    write: (data: string) => {
      written += data;
      return true;
    },
    destroy: () => undefined,
  } as unknown as Socket;
  transportErrorHandlers({ APP_VERSION: 'v' }).clientErrorHandler(Object.assign(new Error(code), { code }), socket);
  const [head, body] = written.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as Record<string, unknown> };
}

describe(transportErrorHandlers.name, () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'http.timeout'],
    ['HPE_HEADER_OVERFLOW', 431, 'http.headersTooLarge'],
    ['HPE_INVALID_METHOD', 400, 'http.invalidHttp'],
  ] as const)('answers %s with %i, invalid_request and message_ja', (code, status, key) => {
    expect(answer(code)).toEqual({
      status,
      body: { status: false, code: status, version: 'v', error: 'invalid_request', message: messages[key].en, message_ja: messages[key].ja },
    });
  });
});
