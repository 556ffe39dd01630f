import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from '../common/http/encoded-json';

/** Headers of every map response, errors included: maps are public (docs/console-and-maps.md, Maps). */
export const PUBLIC_MAP_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

/** `/maps/...` and `/cities/{id}/shape.svg` (after the `/v1` prefix is stripped). */
export function isMapPath(url: string | undefined): boolean {
  if (url === undefined) {
    return false;
  }
  const path = url.split('?')[0];
  return path.startsWith('/maps/') || /^\/cities\/[^/]+\/shape\.svg$/.test(path);
}

/** A map file (GeoJSON or SVG) with a strong ETag, sent with 304 on a matching If-None-Match. */
export class MapFile {
  readonly etag: string;

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
  ) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  static of(text: string, contentType: string): MapFile {
    return new MapFile(Buffer.from(text, 'utf8'), contentType);
  }

  send(request: FastifyRequest, reply: FastifyReply): void {
    void reply.header('etag', this.etag).header('cache-control', 'public, max-age=60').headers(PUBLIC_MAP_HEADERS);
    if (matchesEtag(request.headers['if-none-match'], this.etag)) {
      void reply.status(304).send();
      return;
    }
    void reply.header('content-type', this.contentType).send(this.body);
  }
}
