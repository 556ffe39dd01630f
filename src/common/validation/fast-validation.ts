import { TransformationType } from 'class-transformer';
import type { MetadataStorage as TransformerMetadata } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// class-transformer's decorator registry: not exported from its index, typed by its declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerMetadata };

type Check = (value: unknown) => boolean;

interface FieldPlan {
  name: string;
  /** ValidateIf conditions (OptionalField): when one is false, the field is not validated. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  checks: Check[];
}

/** A DTO class's parameters as the fast path validates them; undefined when it cannot. */
export interface FastPlan {
  create: () => object;
  fields: FieldPlan[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/**
 * Checks that, when they pass, imply class-validator's own check passes. They may be stricter
 * (a string of more UTF-16 units than `maxLength` may still be valid by class-validator's count,
 * which counts a surrogate pair once): anything they do not accept goes to class-validator, which
 * decides and writes the message. So the fast path never accepts what the pipe would refuse.
 */
function checkOf(metadata: ValidationMetadata): Check | undefined {
  const [first, second] = (metadata.constraints ?? []) as unknown[];
  switch (metadata.name) {
    case 'isString':
      return (value) => typeof value === 'string';
    case 'maxLength':
      return typeof first === 'number' ? (value) => typeof value === 'string' && value.length <= first : undefined;
    case 'minLength':
      // Fewer UTF-16 units never counts as more characters: only the plain ASCII case is taken here.
      return typeof first === 'number' ? (value) => typeof value === 'string' && value.length >= first && isAscii(value) : undefined;
    case 'isLength':
      return typeof first === 'number' && (second === undefined || typeof second === 'number')
        ? (value) => typeof value === 'string' && value.length >= first && (second === undefined || value.length <= second) && isAscii(value)
        : undefined;
    case 'matches': {
      if (!(first instanceof RegExp) || first.global || first.sticky || second !== undefined) {
        return undefined;
      }
      return (value) => typeof value === 'string' && first.test(value);
    }
    case 'isIn':
      return Array.isArray(first) ? (value) => first.includes(value) : undefined;
    case undefined:
    default:
      return undefined;
  }
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const isAscii = (value: string): boolean => ASCII.test(value);

/**
 * Reads the validation metadata of a DTO class and returns a plan for the fast path, or undefined
 * when the class uses anything beyond plain string rules (transforms, nested objects, numbers,
 * groups, `each`, custom messages are fine since only valid input takes the fast path).
 */
export function planFor(metatype: new () => object): FastPlan | undefined {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(metatype, '', true, false);
  if (metadatas.length === 0) {
    return undefined;
  }
  if (defaultMetadataStorage.getExposedMetadatas(metatype).length > 0 || defaultMetadataStorage.getExcludedMetadatas(metatype).length > 0) {
    return undefined;
  }
  const fields = new Map<string, FieldPlan>();
  for (const metadata of metadatas) {
    if (metadata.each || (metadata.groups && metadata.groups.length > 0) || metadata.always) {
      return undefined;
    }
    const name = metadata.propertyName;
    if (
      defaultMetadataStorage.findTransformMetadatas(metatype, name, TransformationType.PLAIN_TO_CLASS).length > 0 ||
      defaultMetadataStorage.findTypeMetadata(metatype, name) !== undefined
    ) {
      return undefined;
    }
    let field = fields.get(name);
    if (!field) {
      field = { name, conditions: [], checks: [] };
      fields.set(name, field);
    }
    if (metadata.type === 'conditionalValidation') {
      field.conditions.push(metadata.constraints[0] as (object: object, value: unknown) => boolean);
      continue;
    }
    if (metadata.type !== 'customValidation') {
      return undefined;
    }
    const check = checkOf(metadata);
    if (!check) {
      return undefined;
    }
    field.checks.push(check);
  }
  return { create: () => new metatype(), fields: [...fields.values()] };
}

/**
 * The DTO instance the validation pipe would return (only the declared parameters, as given), or
 * undefined when the input is not certainly valid and the pipe must decide.
 */
export function fastValidate(plan: FastPlan, input: unknown): object | undefined {
  if (!isPlainObject(input)) {
    return undefined;
  }
  const instance = plan.create() as Record<string, unknown>;
  for (const field of plan.fields) {
    if (Object.prototype.hasOwnProperty.call(input, field.name)) {
      instance[field.name] = input[field.name];
    }
  }
  for (const field of plan.fields) {
    const value = instance[field.name];
    if (field.conditions.some((condition) => !condition(instance, value))) {
      continue;
    }
    for (const check of field.checks) {
      if (!check(value)) {
        return undefined;
      }
    }
  }
  return instance;
}
