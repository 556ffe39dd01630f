import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);
const COMPRESS_ABOVE_BYTES = 1024;

/**
 * A response body serialised (and gzipped) once and sent many times: for large, often-read
 * payloads where serialising per request would dominate. Carries a strong ETag.
 */
export class EncodedJson {
  readonly etag: string;

  private constructor(
    readonly body: Buffer,
    readonly gzip: Buffer | undefined,
  ) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  /** Serialises once and compresses once, on the thread pool (a megabyte takes tens of milliseconds). */
  static async of(value: unknown): Promise<EncodedJson> {
    const body = Buffer.from(JSON.stringify(value), 'utf8');
    const gzipped = body.length > COMPRESS_ABOVE_BYTES ? await gzipAsync(body, { level: 9 }) : undefined;
    return new EncodedJson(body, gzipped);
  }

  /** Sends with ETag/If-None-Match (304) and gzip when the client accepts it. */
  send(request: FastifyRequest, reply: FastifyReply): void {
    void reply.header('etag', this.etag).header('vary', 'accept-encoding').header('cache-control', 'no-cache');
    if (matchesEtag(request.headers['if-none-match'], this.etag)) {
      void reply.status(304).send();
      return;
    }
    void reply.header('content-type', 'application/json; charset=utf-8');
    const acceptEncoding = request.headers['accept-encoding'];
    if (this.gzip && typeof acceptEncoding === 'string' && /\bgzip\b/.test(acceptEncoding)) {
      void reply.header('content-encoding', 'gzip').send(this.gzip);
      return;
    }
    void reply.send(this.body);
  }
}

/** Whether an `If-None-Match` header names `etag` (or `*`); weak forms match (a GET compares weakly). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) {
    return false;
  }
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
