import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min, ValidateBy } from 'class-validator';
import { fitsTimeColumn, INT_COLUMN_MAX } from '../column-limits';

/** Validation rules for what a column holds on both databases (the limits: src/common/column-limits.ts). */
export { DATETIME_COLUMN_MAX, DATETIME_COLUMN_MIN, fitsTimeColumn, INT_COLUMN_MAX } from '../column-limits';

/** An integer from `min` to INT_COLUMN_MAX: what an `integer` column (an id) can store on either database. */
export const IsIntColumn = (min: number): PropertyDecorator => applyDecorators(IsInt(), Min(min), Max(INT_COLUMN_MAX));

/** The constraint's name: `validation.timeColumn` in the message catalogue. */
export const TIME_COLUMN = 'timeColumn';

/** A time from DATETIME_COLUMN_MIN to DATETIME_COLUMN_MAX (UTC), whatever zone it was written in. */
export const IsTimeColumn = (): PropertyDecorator =>
  ValidateBy({ name: TIME_COLUMN, validator: { validate: (value: unknown) => fitsTimeColumn(value) } }, { message: 'validation.timeColumn' });
