import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDate } from 'class-validator';
import { parseTimestamp } from '../timestamp';
import { rule } from '../../common/validation/validation.pipe';

/** An ISO 8601 timestamp with a zone, handed to the handler as a Date; anything else is a 400 naming the field. */
export const IsTimestamp = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => parseTimestamp(value) ?? value),
    IsDate(rule('validation.timestamp')),
  );
