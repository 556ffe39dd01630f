import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ApiError, ErrorDetail } from '../errors/api-error';
import { type FastPlan, fastValidate, planFor } from './fast-validation';

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

/**
 * Nest's ValidationPipe with a fast path: for DTOs of plain string rules (the lookups of the hot
 * GET routes), input that certainly passes is copied into the DTO without class-transformer and
 * class-validator (about 10 µs a request, a tenth of a read's CPU). Anything else, including every
 * invalid input, goes through the pipe unchanged, so results and messages are the pipe's own.
 */
export class FastValidationPipe extends ValidationPipe {
  private readonly plans = new Map<unknown, FastPlan | null>();

  constructor(options: ValidationPipeOptions) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    if (metatype && metadata.type === 'custom') {
      let plan = this.plans.get(metatype);
      if (plan === undefined) {
        plan = this.toValidate(metadata) ? (planFor(metatype as new () => object) ?? null) : null;
        this.plans.set(metatype, plan);
      }
      const fast = plan ? fastValidate(plan, value) : undefined;
      if (fast) {
        return fast;
      }
    }
    return super.transform(value, metadata);
  }
}

/** The one validation setup: DTO classes, explicit conversions, unknown parameters dropped. */
export function createValidationPipe(): ValidationPipe {
  return new FastValidationPipe({
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
