import { ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, type ValidationOptions } from 'class-validator';
import { ApiError, ErrorDetail } from '../errors/api-error';
import { isMessageKey, type MessageKey, msg, type ParamValue, textOf } from '../errors/messages';

/**
 * Names of the arguments a class-validator decorator was given, as the catalogue's
 * `validation.<constraint>` sentences use them (`@Length(8, 128)` → {min: 8, max: 128}).
 */
export const constraintArgs: Readonly<Record<string, readonly string[]>> = {
  isLength: ['min', 'max'],
  maxLength: ['max'],
  minLength: ['min'],
  min: ['min'],
  max: ['max'],
  arrayMinSize: ['min'],
  arrayMaxSize: ['max'],
  isIn: ['values'],
};

/** A decorator's own catalogue sentence instead of the constraint's: `@Matches(UUID_PATTERN, rule('validation.uuid'))`. */
export function rule(key: MessageKey, options: ValidationOptions = {}): ValidationOptions {
  return { ...options, message: key };
}

/** The arguments the decorator behind a failed constraint was given (class-validator reports only its message). */
function argumentsOf(target: unknown, property: string, constraint: string): unknown[] {
  if (typeof target !== 'object' || target === null) {
    return [];
  }
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .find((entry) => entry.propertyName === property && (entry.name === constraint || entry.type === constraint));
  return (metadata?.constraints as unknown[] | undefined) ?? [];
}

function paramsOf(constraint: string, args: unknown[], field: string): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = { field };
  (constraintArgs[constraint] ?? []).forEach((name, index) => {
    const value = args[index];
    params[name] = Array.isArray(value) ? value.map(String) : typeof value === 'number' ? value : String(value);
  });
  return params;
}

/** One offending parameter's entry: a catalogue sentence chosen by the failed constraint. */
function describe(error: ValidationError, field: string): ErrorDetail {
  const constraints = Object.entries(error.constraints ?? {});
  // With stopAtFirstError there is one; otherwise the last is the most specific.
  const [constraint, message] = constraints[constraints.length - 1];
  const absent = error.value === undefined || error.value === null || error.value === '';
  const params = paramsOf(constraint, argumentsOf(error.target, error.property, constraint), field);
  const key: MessageKey = isMessageKey(message) ? message : absent ? 'validation.required' : isMessageKey(`validation.${constraint}`) ? (`validation.${constraint}` as MessageKey) : 'validation.invalid';
  const text = textOf(key, params);
  return { field, message: text.en, message_ja: text.ja };
}

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      // One entry per offending parameter.
      details.push(describe(error, field));
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
    // The target and value let the details name the rule's arguments and tell "missing" from "wrong".
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const fields = [...new Set(details.map((entry) => entry.field.split('.')[0]))];
      return ApiError.badRequest(msg(fields.length === 1 ? 'validation.invalidParameter' : 'validation.invalidParameters', { fields }), details);
    },
  });
}
