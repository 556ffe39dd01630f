import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/**
 * How a route family answers when it does not use the base response as the rest of the API does
 * (docs/api.md, "Routes that answer in other shapes"): routes written for other clients declare it
 * on each handler, and the envelope hook and the error filter read it here.
 *
 * - `bare`: the body is the payload itself; a failure is HTTP 200 `{"error": "<text>"}` (the
 *   client looks for an `error` key), except a rate-limit refusal and a server fault, which keep
 *   their status.
 * - `base-error-text`: the base response, with `error` holding the message text instead of the code.
 * - `base-soft-not-found`: the base response; a not-found is HTTP 200 `{status: false, code: 404,
 *   version, message, message_ja}` (the client's not-found branch runs only on a 2xx), every other
 *   error keeps its status and envelope.
 */
export type AnswerStyle = 'bare' | 'base-error-text' | 'base-soft-not-found';

interface AnswerStyleConfig {
  answerStyle?: AnswerStyle;
  /** Over the per-address limit, a CAPTCHA token that verifies lets the request through. */
  captchaOverLimit?: boolean;
}

/**
 * Declares the answer style of a route (a Fastify route config: Nest reads it per handler, not per
 * controller), and whether a CAPTCHA token lets it through once its address is over the limit.
 */
export const AnswersIn = (style: AnswerStyle, options: { captchaOverLimit?: boolean } = {}): MethodDecorator =>
  RouteConfig({ answerStyle: style, captchaOverLimit: options.captchaOverLimit } satisfies AnswerStyleConfig);

/** The answer style of the route that matched, if it declared one. */
export function answerStyleOf(request: FastifyRequest): AnswerStyle | undefined {
  return (request.routeOptions?.config as AnswerStyleConfig | undefined)?.answerStyle;
}

/**
 * The CAPTCHA token an over-limit request carries, on a route that accepts one then: the query
 * parameter `recaptcha` or `user_recaptcha`, or the `X-reCAPTCHA-Token` header (where the
 * community's players and bans sites send theirs).
 */
export function overLimitCaptchaToken(request: FastifyRequest): string | undefined {
  if ((request.routeOptions?.config as AnswerStyleConfig | undefined)?.captchaOverLimit !== true) {
    return undefined;
  }
  const query = request.query as Record<string, unknown> | undefined;
  const header = request.headers['x-recaptcha-token'];
  const token = [query?.recaptcha, query?.user_recaptcha, header].find((value): value is string => typeof value === 'string' && value !== '');
  return token !== undefined && token.length <= 4096 ? token : undefined;
}
