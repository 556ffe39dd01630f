import { HttpException } from '@nestjs/common';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { ApiError, ErrorCode, ErrorDetail } from './api-error';

export interface ErrorBody {
  status: false;
  code: number;
  version: string;
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error is ours (a bug or an outage) and belongs in the error log. */
  isServerFault: boolean;
}

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

const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request body has an unsupported content type.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but its content type is JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

function codeFor(status: number): ErrorCode {
  return codeByStatus[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}

interface FastifyLikeError {
  statusCode?: unknown;
  code?: unknown;
  message?: unknown;
}

/**
 * Turns anything thrown into the contract's error envelope. The only place that decides what a
 * client sees of an error: 5xx bodies never carry the internal message.
 */
export function toErrorResponse(error: unknown, version: string): ErrorResponse {
  const build = (status: number, code: ErrorCode, message: string, details?: ErrorDetail[], headers: Record<string, string> = {}): ErrorResponse => ({
    status,
    headers,
    isServerFault: status >= 500,
    body: { status: false, code: status, version, error: code, message, ...(details && details.length > 0 ? { details } : {}) },
  });

  if (error instanceof ApiError) {
    return build(error.getStatus(), error.code, error.message, error.details, error.headers);
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return status >= 500
      ? build(500, 'internal_error', 'An internal error occurred.')
      : build(status, codeFor(status), error.message);
  }
  if (isDatabaseUnavailable(error)) {
    return build(503, 'service_unavailable', 'The database is unavailable; try again shortly.');
  }
  const fastifyError = error as FastifyLikeError;
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const fastifyCode = typeof fastifyError.code === 'string' ? fastifyError.code : '';
    // Unsupported media types are reported as a bad request: the contract has no 415.
    const status = fastifyError.statusCode === 415 ? 400 : fastifyError.statusCode;
    const message =
      fastifyMessages[fastifyCode] ??
      (error instanceof SyntaxError || /JSON/i.test(String(fastifyError.message))
        ? 'The request body could not be parsed.'
        : (typeof fastifyError.message === 'string' ? fastifyError.message : 'The request is invalid.'));
    return build(status, codeFor(status), message);
  }
  return build(500, 'internal_error', 'An internal error occurred.');
}
