import { applyDecorators } from '@nestjs/common';
import { IsDate } from 'class-validator';
import { Transformed } from '../../common/validation/transforms';
import { parseTimestamp } from '../timestamp';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimeColumn } from '../../common/validation/column-range';

/**
 * An ISO 8601 timestamp with a zone, handed to the handler as a Date; anything else is a 400 naming
 * the field, and so is a time no `datetime` column stores on both databases (year 10000 in UTC,
 * which 9999-12-31T23:00-05:00 already is, or before 1000).
 */
export const IsTimestamp = (): PropertyDecorator =>
  applyDecorators(
    Transformed(({ value }: { value: unknown }) => parseTimestamp(value) ?? value),
    IsDate(rule('validation.timestamp')),
    IsTimeColumn(),
  );
