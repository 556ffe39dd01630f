import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateBy, ValidateNested } from 'class-validator';

/**
 * Lists of objects in a request (the game server's batches), and the rule that every element is
 * an object. class-validator's nested validation walks into an element that is itself a list as if
 * it were part of the outer one, so `{"logins":[[]]}` used to pass validation with nothing checked
 * and fail further in (500), and `[[1, 2]]` was reported as `logins.0.0`. The rule below runs
 * first; with the pipe's stopAtFirstError, the elements' own rules run only when it passed.
 */

/** The constraint's name: the pipe reports one detail per element that broke it (`logins.3`). */
/** The most records one ingest batch (game server, chat bot) may carry; stored in one transaction. */
export const MAX_BATCH = 1000;

export const EACH_OBJECT = 'eachObject';

/** A JSON object: not null, not a list. */
function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The positions of a list's elements that are not objects (none for anything but a list). */
export function nonObjectElements(value: unknown): number[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const positions: number[] = [];
  value.forEach((element, index) => {
    if (!isObject(element)) {
      positions.push(index);
    }
  });
  return positions;
}

/** Every element of the list is an object (arrays, null, strings and numbers are not). */
export const EachObject = (): PropertyDecorator =>
  ValidateBy({ name: EACH_OBJECT, validator: { validate: (value: unknown) => nonObjectElements(value).length === 0 } }, { message: 'validation.eachObject' });

/**
 * A list of `min` to `max` objects, each validated as `type()`: the list, its size, that every
 * element is an object, then each element's own rules (in that order: the first broken one is
 * reported).
 */
export function ListOf(type: () => new () => object, options: { min: number; max: number }): PropertyDecorator {
  return applyDecorators(IsArray(), ArrayMinSize(options.min), ArrayMaxSize(options.max), EachObject(), ValidateNested({ each: true }), Type(type));
}
