import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A response body serialised (and gzipped) once and sent many times: for large, often-read
 * payloads where serialising per request would dominate. Carries a strong ETag.
 */
export class EncodedJson {
  readonly etag: string;
  private gzipped: Buffer | undefined;

  constructor(readonly body: Buffer) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  static of(value: unknown): EncodedJson {
    return new EncodedJson(Buffer.from(JSON.stringify(value), 'utf8'));
  }

  get gzip(): Buffer {
    this.gzipped ??= gzipSync(this.body, { level: 9 });
    return this.gzipped;
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
    if (this.body.length > 1024 && typeof acceptEncoding === 'string' && /\bgzip\b/.test(acceptEncoding)) {
      void reply.header('content-encoding', 'gzip').send(this.gzip);
      return;
    }
    void reply.send(this.body);
  }
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) {
    return false;
  }
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
