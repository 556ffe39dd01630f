import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import { TRANSFORMED_RULE } from './transforms';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

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
 *
 * Everything is read from class-validator's public metadata: a transformed field carries the
 * TRANSFORMED_RULE mark (transforms.ts), and class-transformer's `@Type` comes only with
 * `@ValidateNested` (lists.ts), a nested rule; the lint config keeps class-transformer's
 * decorators out of every other file.
 */
export function planFor(metatype: new () => object): FastPlan | undefined {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(metatype, '', true, false);
  if (metadatas.length === 0) {
    return undefined;
  }
  const fields = new Map<string, FieldPlan>();
  for (const metadata of metadatas) {
    if (metadata.each || (metadata.groups && metadata.groups.length > 0) || metadata.always) {
      return undefined;
    }
    if (metadata.name === TRANSFORMED_RULE) {
      return undefined;
    }
    const name = metadata.propertyName;
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
