import { HttpException } from '@nestjs/common';
import { isMessageKey, type LocalizedText, type PlainMessageKey, textOf } from './messages';

export type ErrorCode =
  | 'invalid_request'
  | 'captcha_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

export const ERROR_CODES: readonly ErrorCode[] = [
  'invalid_request',
  'captcha_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];

export interface ErrorDetail {
  field: string;
  message: string;
  message_ja: string;
}

/**
 * What an error says: a catalogue key without placeholders, or `msg(key, params)` (see
 * messages.ts). Never free text, so every error carries its Japanese sentence (docs/api.md, Requests and responses).
 */
export type ErrorMessage = PlainMessageKey | LocalizedText;

export function localized(message: ErrorMessage, code: ErrorCode = 'invalid_request'): LocalizedText {
  if (typeof message !== 'string') {
    return message;
  }
  // The types allow only keys; free text from untyped code keeps its English and gets the code's generic Japanese.
  return isMessageKey(message) ? textOf(message) : { ...textOf(`error.${code}`), en: message };
}

/** One `details` entry: the parameter and what is wrong with it, in both languages. */
export function detail(field: string, message: ErrorMessage): ErrorDetail {
  const text = localized(message);
  return { field, message: text.en, message_ja: text.ja };
}

/** An error the client is meant to see: status, error code, message in both languages, details. */
export class ApiError extends HttpException {
  readonly text: LocalizedText;

  constructor(
    status: number,
    readonly code: ErrorCode,
    message: ErrorMessage,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    const text = localized(message, code);
    super(text.en, status);
    this.text = text;
  }

  static badRequest(message: ErrorMessage, details?: ErrorDetail[]): ApiError {
    return new ApiError(400, 'invalid_request', message, details);
  }

  static invalidField(field: string, message: ErrorMessage): ApiError {
    return new ApiError(400, 'invalid_request', message, [detail(field, message)]);
  }

  static captchaFailed(message: ErrorMessage = 'captcha.failed'): ApiError {
    return new ApiError(400, 'captcha_failed', message, [detail('recaptcha', message)]);
  }

  static unauthorized(message: ErrorMessage): ApiError {
    return new ApiError(401, 'unauthorized', message);
  }

  static forbidden(message: ErrorMessage): ApiError {
    return new ApiError(403, 'forbidden', message);
  }

  static notFound(message: ErrorMessage): ApiError {
    return new ApiError(404, 'not_found', message);
  }

  static conflict(message: ErrorMessage, details?: ErrorDetail[]): ApiError {
    return new ApiError(409, 'conflict', message, details);
  }

  /**
   * 503. A transient outage names when to come back (`Retry-After`, docs/reliability.md); one that
   * lasts until an operator acts (a feature switched off, a console not built) names none, so that
   * clients do not retry in a loop.
   */
  static unavailable(message: ErrorMessage, retryAfterSeconds?: number): ApiError {
    const headers = retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) };
    return new ApiError(503, 'service_unavailable', message, undefined, headers);
  }
}
