import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from '../common/http/encoded-json';
import type { EvidenceContent } from './evidence.repository';

/**
 * Headers of every `/evidence/...` response, errors included: any site may load the pictures (the
 * bans site shows them from its own origin in `<img>` tags, which a same-origin resource policy
 * would block).
 */
export const PUBLIC_EVIDENCE_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

/** `/evidence/...` (after the `/v1` prefix is stripped). */
export function isEvidencePath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith('/evidence/');
}

/**
 * A name's content never changes (names are generated, never reused): the name is the ETag and
 * the picture may be kept for a year. `nosniff` comes with the API's own headers.
 */
export function sendPicture(name: string, content: EvidenceContent, request: FastifyRequest, reply: FastifyReply): void {
  const etag = `"${name}"`;
  void reply.header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable');
  if (matchesEtag(request.headers['if-none-match'], etag)) {
    void reply.status(304).send();
    return;
  }
  void reply.header('content-type', content.contentType).send(content.bytes);
}
