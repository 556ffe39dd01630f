import { getMetadataStorage, ValidationError } from 'class-validator';

/**
 * What a variable accepts, read from its class-validator decorators (isInt / isNumber, min, max,
 * isIn, isBoolean): one description per kind of variable instead of a hand-written message each.
 */
export interface Accepts {
  kind: 'integer' | 'number' | 'boolean' | 'choice' | 'other';
  min?: number;
  max?: number;
  choices?: readonly string[];
}

/** What each property of `target` accepts, from its validation decorators. */
export function acceptedValues(target: new () => object): Map<string, Accepts> {
  const accepts = new Map<string, Accepts>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    const entry = accepts.get(metadata.propertyName) ?? { kind: 'other' };
    const [constraint] = (metadata.constraints ?? []) as unknown[];
    switch (metadata.name) {
      case 'isInt':
        entry.kind = 'integer';
        break;
      case 'isNumber':
        entry.kind = entry.kind === 'integer' ? 'integer' : 'number';
        break;
      case 'isBoolean':
        entry.kind = 'boolean';
        break;
      case 'isIn':
        entry.kind = 'choice';
        entry.choices = constraint as readonly string[];
        break;
      case 'min':
        entry.min = constraint as number;
        break;
      case 'max':
        entry.max = constraint as number;
        break;
      case undefined:
      default:
        break;
    }
    accepts.set(metadata.propertyName, entry);
  }
  return accepts;
}

function range(accepts: Accepts): string {
  const what = accepts.kind === 'integer' ? 'a whole number' : 'a number';
  if (accepts.min !== undefined && accepts.max !== undefined) {
    return `${what} from ${accepts.min} to ${accepts.max}`;
  }
  if (accepts.min !== undefined) {
    return `${what} of at least ${accepts.min}`;
  }
  if (accepts.max !== undefined) {
    return `${what} of at most ${accepts.max}`;
  }
  return what;
}

/**
 * The reason a value was refused, naming what was given and what is wanted: "PORT=abc is not a
 * number (give a whole number from 1 to 65535)". Only numbers, booleans and choices are echoed
 * (never a secret, an address or a URL that may hold a password); for any other variable the
 * decorator's own message is kept, which each of them words by hand.
 */
export function describeProblem(error: ValidationError, raw: string | undefined, accepts: Accepts | undefined): string {
  const name = error.property;
  const fallback = Object.values(error.constraints ?? {})[0] ?? `${name} is invalid`;
  if (accepts === undefined || accepts.kind === 'other' || raw === undefined) {
    return fallback;
  }
  const given = raw.trim();
  if (accepts.kind === 'boolean') {
    const wanted = 'true or false (also 1/0, yes/no, on/off)';
    return given === '' ? `${name} is empty: give ${wanted}, or leave it out for the default` : `${name}=${raw} is not a yes/no value: give ${wanted}`;
  }
  if (accepts.kind === 'choice') {
    const wanted = `one of ${(accepts.choices ?? []).join(', ')}`;
    return given === '' ? `${name} is empty: give ${wanted}, or leave it out for the default` : `${name}=${raw} is not ${wanted}`;
  }
  const wanted = range(accepts);
  if (given === '') {
    return `${name} is empty: give ${wanted}, or leave it out for the default`;
  }
  const value = Number(given);
  if (Number.isNaN(value)) {
    return `${name}=${raw} is not a number: give ${wanted}`;
  }
  // Whole numbers are read as digits only (`1e3` and `0x10` are refused, as the reading does).
  if (accepts.kind === 'integer' && (!Number.isInteger(value) || !/^-?\d+$/.test(given))) {
    return `${name}=${raw} is not a whole number: give ${wanted}`;
  }
  if ((accepts.min !== undefined && value < accepts.min) || (accepts.max !== undefined && value > accepts.max)) {
    return `${name}=${raw} is out of range: give ${wanted}`;
  }
  return fallback;
}
