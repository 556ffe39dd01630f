import { parse as parseQueryString } from 'node:querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { msg } from '../errors/messages';

/**
 * JSON bodies (docs/api.md, Requests and responses), form bodies, and what the existing club site sends — a JSON
 * text with the form content type, or with no content type at all.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');

  const parseLoose = (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void): void => {
    const text = body.trim();
    if (text === '') {
      done(null, {});
      return;
    }
    if (text.startsWith('{') || text.startsWith('[')) {
      void parseJson(request, text, done);
      return;
    }
    try {
      done(null, parseForm(text));
    } catch (error) {
      done(error as Error);
    }
  };

  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser(['application/x-www-form-urlencoded', 'text/plain'], { parseAs: 'string' }, parseLoose);
  // Anything else (including no content type) is read the same lenient way; unreadable bodies give 400.
  fastify.addContentTypeParser('*', { parseAs: 'string' }, parseLoose);
}

function parseForm(text: string): Record<string, unknown> {
  const parsed = parseQueryString(text);
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(parsed)) {
    assertSingleValued(name, value, 'body');
    out[name] = value;
  }
  return { ...out };
}

/** A parameter given twice (`?id=1&id=2`) or in bracket form (`id[]=1`) is ambiguous: 400. */
export function assertSingleValued(name: string, value: unknown, where: 'query' | 'body'): void {
  if (Array.isArray(value) || name.includes('[')) {
    const field = name.replace(/\[.*$/, '');
    throw ApiError.invalidField(field, msg(where === 'query' ? 'http.duplicateQuery' : 'http.duplicateBody', { field }));
  }
}
