import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';

/**
 * The largest value an `integer` column holds on both databases: MariaDB's INT is signed 32-bit
 * (SQLite's INTEGER is 64-bit, but a value must fit wherever the data may move). Past it, MariaDB
 * refused the write (a 500), and a number like 1e308, an "integer" to JavaScript, was stored by
 * SQLite as a REAL and refused as a key.
 */
export const INT_COLUMN_MAX = 2_147_483_647;

/** An integer from `min` to INT_COLUMN_MAX: what an `integer` column (an id) can store on either database. */
export const IsIntColumn = (min: number): PropertyDecorator => applyDecorators(IsInt(), Min(min), Max(INT_COLUMN_MAX));
