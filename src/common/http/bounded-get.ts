/**
 * Answers from other servers that can never take more memory or time than the caller allows
 * (docs/game-server.md, Syncing; SECURITY.md, Availability). Built on Node's `fetch`, which already
 * decodes gzip, deflate and br as a stream, pools connections, covers the whole body with its
 * signal and can leave redirects alone; what it lacks is a bound on the body, and that is
 * `readBoundedBody`: `response.text()` or `.json()` would hold the whole (decoded) body before
 * anyone could look at its size.
 */

export type BodyProblem = 'too-large' | 'unsupported-encoding' | 'undecodable';

/** The answer's body broke a rule; its stream was cancelled, which closes the connection. Never retried. */
export class BodyRefusedError extends Error {
  override readonly name = 'BodyRefusedError';

  constructor(
    readonly problem: BodyProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The encodings `fetch` decodes; any other (or a chain of several) is refused rather than read as it is. */
const DECODED_ENCODINGS = new Set(['', 'identity', 'gzip', 'x-gzip', 'deflate', 'br']);

/**
 * The body of `response`, decoded, at most `maxBytes`. A declared `Content-Length` over the limit
 * is refused before a byte is read; past the limit while reading, the stream is cancelled at once,
 * so at most `maxBytes` plus one chunk is ever held, and a small compressed body cannot expand
 * into gigabytes (the limit counts decoded bytes). The request's signal still ends a body that
 * stalls.
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<Buffer> {
  const refuse = async (problem: BodyProblem, message: string): Promise<never> => {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyRefusedError(problem, message);
  };
  const encoding = (response.headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (!DECODED_ENCODINGS.has(encoding)) {
    return refuse('unsupported-encoding', `the body's content-encoding "${encoding.slice(0, 40)}" is not one of gzip, deflate, br`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return refuse('too-large', `the declared body (${declared} bytes) is over the limit of ${maxBytes} bytes`);
  }
  if (!response.body) {
    return Buffer.alloc(0);
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch (error) {
      // zlib's own failure, surfaced by fetch as the stream's error: the body is not what it says.
      if (isDecodingError(error)) {
        throw new BodyRefusedError('undecodable', `the body is not valid ${encoding}`);
      }
      throw error;
    }
    if (next.done) {
      return Buffer.concat(chunks, size);
    }
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyRefusedError('too-large', `the body is over the limit of ${maxBytes} bytes`);
    }
    chunks.push(next.value);
  }
}

function isDecodingError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('Z_')) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export interface BoundedAnswer {
  status: number;
  headers: Headers;
  /** The decoded body, at most `maxBytes`. */
  body: Buffer;
}

/**
 * A GET whose answer is bounded by `maxBytes` (decoded) and by `signal` (connecting, the headers
 * and the last byte of the body). Redirects are never followed: a 3xx is returned like any other
 * status, with its headers.
 */
export async function boundedGet(url: URL, options: { maxBytes: number; signal: AbortSignal; headers?: Record<string, string> }): Promise<BoundedAnswer> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'gzip, deflate, br', ...options.headers }, redirect: 'manual', signal: options.signal });
  const body = await readBoundedBody(response, options.maxBytes);
  return { status: response.status, headers: response.headers, body };
}
