import { Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/**
 * A GET whose answer can never take more memory or time than its caller allows (docs/game-server.md,
 * Syncing; SECURITY.md, Availability). `fetch` offers neither: `response.text()` holds the whole body
 * before anyone can look at its size, decompresses without a bound, and follows redirects.
 *
 * - The body is counted as it arrives, after decoding: past `maxBytes` the request is destroyed at
 *   once (the socket closes, the sender stops), so at most `maxBytes` plus one decoder chunk is ever
 *   held. A declared `Content-Length` over the limit is refused before a byte of the body is read.
 * - `Content-Encoding` gzip, deflate (zlib-wrapped or raw) and br are decoded here, as a stream, and
 *   the limit applies to the decoded bytes, so a small compressed body cannot expand into gigabytes.
 *   Any other encoding (or a chain of several) is refused.
 * - `signal` covers everything: connecting, the headers and the last byte of the body. When it
 *   aborts the request is destroyed and the call rejects with the signal's reason.
 * - Redirects are never followed: a 3xx is returned like any other status, with its headers.
 */

export type BodyProblem = 'too-large' | 'unsupported-encoding' | 'undecodable';

/** The answer's body broke a rule of this GET; the request was destroyed. Never retried. */
export class BodyRefusedError extends Error {
  override readonly name = 'BodyRefusedError';

  constructor(
    readonly problem: BodyProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface BoundedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The decoded body, at most `maxBytes`. */
  body: Buffer;
}

export interface BoundedGetOptions {
  /** The most decoded body bytes accepted. */
  maxBytes: number;
  /** Aborts the whole exchange (connect, headers, body). */
  signal: AbortSignal;
  headers?: Record<string, string>;
  /** Keep-alive agents to reuse connections with; a new connection per request without. */
  agents?: { http: HttpAgent; https: HttpsAgent };
}

/** The encodings this client decodes, as it advertises them in `Accept-Encoding`. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

export function boundedGet(url: URL, options: BoundedGetOptions): Promise<BoundedAnswer> {
  const { maxBytes, signal } = options;
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise<BoundedAnswer>((resolve, reject) => {
    let settled = false;
    let decoder: Readable | undefined;
    const finish = (outcome: () => void): void => {
      if (settled) {
        return;
      }
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    // Every failure ends the exchange for good: the socket is destroyed, never returned to the pool
    // half-read, and the sender sees the connection close.
    const fail = (error: Error): void => {
      finish(() => reject(error));
      request.destroy();
      decoder?.destroy();
    };
    const onAbort = (): void => fail(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));

    const request = send(url, {
      method: 'GET',
      headers: { 'accept-encoding': ACCEPTED_ENCODINGS, ...options.headers },
      agent: options.agents ? (secure ? options.agents.https : options.agents.http) : false,
    });
    request.on('error', (error) => fail(error));
    request.on('response', (response: IncomingMessage) => {
      response.on('error', (error) => fail(error));
      // The peer closing before the end is an error, not a short body.
      response.on('close', () => {
        if (!response.complete) {
          fail(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }));
        }
      });
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(new BodyRefusedError('too-large', `the declared body (${declared} bytes) is over the limit of ${maxBytes} bytes`));
        return;
      }
      const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      const chunks: Buffer[] = [];
      let size = 0;
      const take = (chunk: Buffer): void => {
        if (settled) {
          return;
        }
        size += chunk.length;
        if (size > maxBytes) {
          fail(new BodyRefusedError('too-large', `the body is over the limit of ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      };
      const done = (): void => finish(() => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks, size) }));
      if (encoding === 'identity' || encoding === '') {
        response.on('data', take);
        response.on('end', done);
        return;
      }
      const made = makeDecoder(encoding, response);
      if (made === undefined) {
        fail(new BodyRefusedError('unsupported-encoding', `the body's content-encoding "${encoding.slice(0, 40)}" is not one of ${ACCEPTED_ENCODINGS}`));
        return;
      }
      made.then(
        (stream) => {
          if (settled) {
            stream.destroy();
            return;
          }
          decoder = stream;
          stream.on('data', take);
          stream.on('end', done);
          stream.on('error', () => fail(new BodyRefusedError('undecodable', `the body is not valid ${encoding}`)));
        },
        (error: Error) => fail(error),
      );
    });
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    request.end();
  });
}

/**
 * The response piped into a streaming decoder, or undefined for an encoding this client does not
 * decode. HTTP's "deflate" is meant to be zlib-wrapped but some servers send raw deflate: the first
 * byte tells them apart (a zlib header's low nibble is 8), as browsers do.
 */
function makeDecoder(encoding: string, response: IncomingMessage): Promise<Readable> | undefined {
  // The decoders' defaults are strict: a body cut off before its end is an error, not a short body.
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return Promise.resolve(response.pipe(createGunzip()));
    case 'br':
      return Promise.resolve(response.pipe(createBrotliDecompress()));
    case 'deflate':
      return new Promise<Readable>((resolve, reject) => {
        const onFirst = (chunk: Buffer): void => {
          response.off('end', onEnd);
          response.pause();
          response.unshift(chunk);
          resolve(response.pipe((chunk[0] & 0x0f) === 0x08 ? createInflate() : createInflateRaw()));
        };
        const onEnd = (): void => {
          response.off('data', onFirst);
          reject(new BodyRefusedError('undecodable', 'the body is not valid deflate (it is empty)'));
        };
        response.once('data', onFirst);
        response.once('end', onEnd);
      });
    default:
      return undefined;
  }
}

/** Keep-alive agents for one client; `destroy()` them when it closes. */
export function keepAliveAgents(): { http: HttpAgent; https: HttpsAgent; destroy(): void } {
  const http = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
  const https = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });
  return {
    http,
    https,
    destroy() {
      http.destroy();
      https.destroy();
    },
  };
}
