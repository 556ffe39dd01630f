import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { getMetadataStorage, type ValidationOptions } from 'class-validator';
import { ApiError, detail, ErrorDetail } from '../errors/api-error';
import { isMessageKey, type MessageKey, msg, type ParamValue, textOf } from '../errors/messages';
import { type FastPlan, fastValidate, planFor } from './fast-validation';
import { EACH_OBJECT, nonObjectElements } from './lists';
import { findForbiddenText } from './text-characters';

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

/** A list whose elements are not all objects: one entry per such element, named by its position (`logins.0`). */
function describeElements(error: ValidationError, field: string): ErrorDetail[] {
  return nonObjectElements(error.value).map((index) => {
    const text = textOf('validation.eachObject', { field: `${field}.${index}`, position: index + 1 });
    return { field: `${field}.${index}`, message: text.en, message_ja: text.ja };
  });
}

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints && EACH_OBJECT in error.constraints) {
      details.push(...describeElements(error, field));
    } else if (error.constraints && Object.keys(error.constraints).length > 0) {
      // One entry per offending parameter.
      details.push(describe(error, field));
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
  private readonly inputs = new Map<unknown, boolean>();

  constructor(options: ValidationPipeOptions) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    if (metatype && this.isInput(metatype)) {
      // One check for every text an input carries, before any rule or the fast path (SECURITY.md).
      const field = findForbiddenText(value);
      if (field !== undefined) {
        const name = field || 'input';
        throw ApiError.badRequest(msg('validation.invalidParameter', { fields: [name.split('.')[0]] }), [detail(name, msg('validation.characters', { field: name }))]);
      }
    }
    if (metadata.type === 'custom' && !this.toValidate(metadata)) {
      // A value the server made (a session, a client address): the pipe returns it as it is anyway.
      return value;
    }
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

  /** A DTO class (it has validation rules): a client's input, never a value the server made (a session). */
  private isInput(metatype: NonNullable<ArgumentMetadata['metatype']>): boolean {
    let known = this.inputs.get(metatype);
    if (known === undefined) {
      known = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).length > 0;
      this.inputs.set(metatype, known);
    }
    return known;
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
    // The target and value let the details name the rule's arguments and tell "missing" from "wrong".
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const fields = [...new Set(details.map((entry) => entry.field.split('.')[0]))];
      return ApiError.badRequest(msg(fields.length === 1 ? 'validation.invalidParameter' : 'validation.invalidParameters', { fields }), details);
    },
  });
}
