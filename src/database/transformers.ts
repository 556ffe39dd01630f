import type { ValueTransformer } from 'typeorm';

/** DATETIME(3) columns hold UTC; mysql2 may hand back strings for some paths, so normalise to Date. */
export const utcDate: ValueTransformer = {
  to: (value: Date | null | undefined) => value,
  from: (value: Date | string | null) => {
    if (value === null || value === undefined) {
      return null;
    }
    if (value instanceof Date) {
      return value;
    }
    return new Date(value.includes('T') || value.endsWith('Z') ? value : `${value.replace(' ', 'T')}Z`);
  },
};
