import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error';

/** The one route that takes a picture as its body (docs/api.md, Moderation). */
export const EVIDENCE_UPLOAD_URL = '/moderation/records/:kind/:id/evidence';

/**
 * Its body limit. A picture may have up to 5 MiB: the evidence feature checks that and answers
 * 413 naming the limit. The transport's limit is a little higher, so that a body just over 5 MiB
 * is read and gets that answer, while a far larger one is cut off (413) without being read.
 * Every other route keeps the global limits (app.factory.ts).
 */
export const EVIDENCE_BODY_LIMIT = 6 * 1024 * 1024;

/**
 * Every `image/*` body is read as raw bytes; what the picture really is, is read from the bytes
 * (an SVG is refused there, 415), not from the content type.
 */
const IMAGE_CONTENT_TYPE = /^image\//i;

/**
 * Reads `image/*` bodies as bytes, on the evidence route only. Anywhere else such a body is a
 * 400, as an unreadable body always was there (the API's one 415 is this route's), so no other
 * route ever sees a Buffer. A body of any other content type (text) is parsed as before, and the
 * evidence route refuses it (415).
 */
export function registerImageBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(IMAGE_CONTENT_TYPE, { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
    if (request.routeOptions.url !== EVIDENCE_UPLOAD_URL) {
      done(ApiError.badRequest('http.unsupportedMediaType'));
      return;
    }
    done(null, body);
  });
}

/** The picture of the evidence route, or 415 when the body was not sent as an `image/*` type. */
export const ImageBody = createParamDecorator((_data: unknown, context: ExecutionContext): Buffer => {
  const body = context.switchToHttp().getRequest<FastifyRequest>().body;
  if (!Buffer.isBuffer(body)) {
    throw new ApiError(415, 'invalid_request', 'moderation.evidenceContentType');
  }
  return body;
});
