import { HttpException } from '@nestjs/common';

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

export interface ErrorDetail {
  field: string;
  message: string;
}

/** An error the client is meant to see: status, contract error code, English message, details. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message, status);
  }

  static badRequest(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(400, 'invalid_request', message, details);
  }

  static invalidField(field: string, message: string): ApiError {
    return new ApiError(400, 'invalid_request', message, [{ field, message }]);
  }

  static captchaFailed(message = 'The CAPTCHA verification failed.'): ApiError {
    return new ApiError(400, 'captcha_failed', message, [{ field: 'recaptcha', message }]);
  }

  static unauthorized(message: string): ApiError {
    return new ApiError(401, 'unauthorized', message);
  }

  static forbidden(message: string): ApiError {
    return new ApiError(403, 'forbidden', message);
  }

  static notFound(message: string): ApiError {
    return new ApiError(404, 'not_found', message);
  }

  static conflict(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(409, 'conflict', message, details);
  }

  static unavailable(message: string): ApiError {
    return new ApiError(503, 'service_unavailable', message);
  }
}
