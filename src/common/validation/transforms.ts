import { applyDecorators } from '@nestjs/common';
import { Transform, type TransformFnParams } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../http/json-depth';

/** The name of the rule that marks a transformed field in class-validator's metadata. */
export const TRANSFORMED_RULE = 'transformedBeforeValidation';

/**
 * The one way a DTO field gets a class-transformer transform: the transform, plus a rule that
 * always passes and only records, in class-validator's public metadata, that the field's value is
 * changed before validation. Subclasses and Nest's mapped types (OmitType, PickType) inherit that
 * metadata, so the fast validation path (fast-validation.ts) sees the mark on every DTO that has
 * such a field and leaves it to the pipe; class-transformer has no public way to ask for its
 * transforms. The lint config allows class-transformer's decorators only here.
 */
export const Transformed = (transform: (params: TransformFnParams) => unknown): PropertyDecorator =>
  applyDecorators(Transform(transform), ValidateBy({ name: TRANSFORMED_RULE, validator: { validate: () => true } }));

/** Optional means "may be absent"; an explicit null is still validated (and so rejected). */
export const OptionalField = (options?: ValidationOptions): PropertyDecorator =>
  ValidateIf((_object, value) => value !== undefined, options);

/** Integers arrive as JSON numbers or digit strings (query strings, form bodies). */
export const ToInt = (): PropertyDecorator =>
  Transformed(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value));

/** Booleans arrive as true/false, "true"/"false" or "1"/"0". */
export const ToBool = (): PropertyDecorator =>
  Transformed(({ value }: { value: unknown }) => {
    if (value === 'true' || value === '1' || value === 1) {
      return true;
    }
    if (value === 'false' || value === '0' || value === 0) {
      return false;
    }
    return value;
  });

/** Form bodies carry arrays and objects as JSON-encoded strings. */
export const FromJsonString = (): PropertyDecorator =>
  Transformed(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') {
      return value;
    }
    try {
      const parsed = JSON.parse(value) as unknown;
      // Inside a body the field is level 2: a too-deep value stays a string and fails validation.
      return exceedsJsonDepth(parsed, MAX_JSON_DEPTH - 1) ? value : parsed;
    } catch {
      return value;
    }
  });

/** Trims surrounding white space from strings and leaves other types for the validators to reject. */
export const Trim = (): PropertyDecorator => Transformed(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
