import { HttpException } from '@nestjs/common';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { QueueFullError } from '../limits/bounded-semaphore';
import { ShareExceededError } from '../limits/fair-queue';
import { ApiError, ErrorCode, ErrorDetail } from './api-error';
import { type LocalizedText, msg, type PlainMessageKey } from './messages';
import type { AnswerStyle } from '../http/answer-style';

export interface ErrorBody {
  status: false;
  code: number;
  version: string;
  error: ErrorCode;
  message: string;
  /** The same in Japanese, for players (docs/api.md, Requests and responses). */
  message_ja: string;
  details?: ErrorDetail[];
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error is ours (a bug or an outage) and belongs in the error log. */
  isServerFault: boolean;
}

/**
 * `Retry-After` (seconds) of a 503: a full queue drains in well under a second; a database that
 * stopped answering needs a few seconds before a retry is worth it (docs/reliability.md).
 */
export const BUSY_RETRY_AFTER_SECONDS = 1;
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const codeByStatus: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
  503: 'service_unavailable',
};

const fastifyMessages: Record<string, PlainMessageKey> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'http.bodyTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'http.unsupportedMediaType',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'http.emptyJsonBody',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'http.contentLengthMismatch',
};

function codeFor(status: number): ErrorCode {
  return codeByStatus[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}

/** The generic sentence of an error code: what a client reads when nothing more specific is known. */
export function genericMessage(code: ErrorCode): LocalizedText {
  return msg(`error.${code}`);
}

interface FastifyLikeError {
  statusCode?: unknown;
  code?: unknown;
  message?: unknown;
}

/**
 * Turns anything thrown into the error envelope of docs/api.md. The only place that decides what a
 * client sees of an error: 5xx bodies never carry the internal message. Every body carries
 * `message_ja`: ApiError brings its catalogue text, anything else gets its code's generic one.
 */
export function toErrorResponse(error: unknown, version: string): ErrorResponse {
  const build = (status: number, code: ErrorCode, text: LocalizedText, details?: ErrorDetail[], headers: Record<string, string> = {}): ErrorResponse => ({
    status,
    headers,
    isServerFault: status >= 500,
    body: {
      status: false,
      code: status,
      version,
      error: code,
      message: text.en,
      message_ja: text.ja,
      ...(details && details.length > 0 ? { details } : {}),
    },
  });
  const generic = (status: number): ErrorResponse => build(status, codeFor(status), genericMessage(codeFor(status)));

  if (error instanceof ApiError) {
    return build(error.getStatus(), error.code, error.text, error.details, error.headers);
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status >= 500) {
      return generic(500);
    }
    // A framework exception: its English is kept, the Japanese is its code's generic sentence.
    const code = codeFor(status);
    return build(status, code, { ...genericMessage(code), en: error.message });
  }
  if (error instanceof ShareExceededError) {
    // This caller's own share of a fair queue is used up: a 429 for it alone, others still get in.
    return build(429, 'rate_limited', msg('limits.queueShare', { seconds: error.retryAfterSeconds }), undefined, { 'Retry-After': String(error.retryAfterSeconds) });
  }
  if (error instanceof QueueFullError) {
    return build(503, 'service_unavailable', msg('server.busy'), undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
  }
  if (isDatabaseUnavailable(error)) {
    return build(503, 'service_unavailable', msg('database.unavailable'), undefined, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  }
  const fastifyError = error as FastifyLikeError;
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const fastifyCode = typeof fastifyError.code === 'string' ? fastifyError.code : '';
    // Unsupported media types are reported as a bad request: the API has no 415 (docs/api.md, Choices where the interface is silent).
    const status = fastifyError.statusCode === 415 ? 400 : fastifyError.statusCode;
    const known = fastifyMessages[fastifyCode] ?? (error instanceof SyntaxError || /JSON/i.test(String(fastifyError.message)) ? 'http.unparsableBody' : undefined);
    if (known) {
      return build(status, codeFor(status), msg(known));
    }
    const english = typeof fastifyError.message === 'string' ? fastifyError.message : genericMessage(codeFor(status)).en;
    return build(status, codeFor(status), { ...genericMessage(codeFor(status)), en: english });
  }
  return generic(500);
}

/** The error text a `bare` route answers with, by status: plain words that never echo the request. */
const BARE_ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request.',
  404: 'User not found.',
  405: 'Method not allowed.',
};

/** Characters HTML gives a meaning to: a client may insert the text into its page as HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * An error as a route family with its own answer style expects it (src/common/http/answer-style.ts).
 * `bare`: a client error becomes HTTP 200 `{"error": "<text>"}`; a rate-limit refusal, a 503 and a
 * server fault keep their status and envelope, so clients and proxies still see them for what they
 * are. `base-error-text`: the envelope with `error` holding the message. `base-soft-not-found`: a
 * 404 becomes HTTP 200 with the envelope's status, code, version and messages.
 */
export function inAnswerStyle(response: ErrorResponse, style: AnswerStyle | undefined): ErrorResponse | BareErrorResponse {
  if (style === 'base-error-text') {
    return { ...response, body: { ...response.body, error: response.body.message } };
  }
  if (style === 'bare' && response.status < 500 && response.status !== 429) {
    return { ...response, status: 200, body: { error: escapeHtml(BARE_ERROR_TEXT[response.status] ?? 'Request failed.') } };
  }
  if (style === 'base-soft-not-found' && response.status === 404) {
    const { status, code, version, message, message_ja } = response.body;
    return { ...response, status: 200, body: { status, code, version, message, message_ja } };
  }
  return response;
}

export interface BareErrorResponse extends Omit<ErrorResponse, 'body'> {
  body: { error: string } | Pick<ErrorBody, 'status' | 'code' | 'version' | 'message' | 'message_ja'>;
}
