import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDate } from 'class-validator';
import { parseTimestamp } from '../timestamp';

/** An ISO 8601 timestamp with a zone, handed to the handler as a Date; anything else is a 400 naming the field. */
export const IsTimestamp = (field: string): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => parseTimestamp(value) ?? value),
    IsDate({ message: `${field} must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-22T03:04:05.000Z` }),
  );
