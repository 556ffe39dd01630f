import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, ErrorDetail } from '../errors/api-error';

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) {
      // One entry per offending parameter: its most specific message.
      details.push({ field, message: messages[messages.length - 1] ?? `${field} is invalid` });
    }
    if (error.children && error.children.length > 0) {
      details.push(...flatten(error.children, field));
    }
  }
  return details;
}

/** The one validation setup: DTO classes, explicit conversions, unknown parameters dropped. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: true,
    validateCustomDecorators: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const fields = [...new Set(details.map((detail) => detail.field.split('.')[0]))];
      return ApiError.badRequest(`Invalid parameter${fields.length === 1 ? '' : 's'}: ${fields.join(', ')}.`, details);
    },
  });
}
