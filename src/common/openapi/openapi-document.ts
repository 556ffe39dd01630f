import type { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The last touches of the served OpenAPI document, so that clients can be generated from it and
 * Redocly's recommended rules pass:
 * - `servers`: the service itself (relative, so the document is right behind any host or proxy)
 *   and the `/v1` alias;
 * - `security: []` on every operation that declares no credential. Every credential decorator
 *   (@ClubAuth, @ApiKeyAuth, @OperatorAuth) documents its security scheme, so an operation
 *   without one is public by construction.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  document.servers = [
    { url: '/', description: 'This service.' },
    { url: '/v1', description: 'The same routes under /v1, for older clients.' },
  ];
  document.info.license ??= { name: 'UNLICENSED', url: 'https://docs.npmjs.com/cli/configuring-npm/package-json#license' };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation && operation.security === undefined) {
        operation.security = [];
      }
    }
  }
  return document;
}
