/** City fixtures shared by the cities e2e suites. */

/** A corner as clients may send it (numbers or integer strings). */
export type Corner = { id: number; x: number | string; z: number | string };
export type NumericCorner = { id: number; x: number; z: number };

/** A square of side `size` blocks whose lowest corner is (x, z); covers size² blocks. */
export function square(x: number, z: number, size = 10): NumericCorner[] {
  const far = size - 1;
  return [
    { id: 1, x, z },
    { id: 2, x, z: z + far },
    { id: 3, x: x + far, z: z + far },
    { id: 4, x: x + far, z },
  ];
}

export interface CityFieldsOptions {
  /** Name prefix; a counter and a random suffix make every name unique. */
  name: string;
  /** Kana prefix, followed by the counter spelled with `kanaDigits`. */
  kana: string;
  kanaDigits: string;
  /** The row (z) of this suite's plots, so suites sharing a database never overlap. */
  z: number;
  extra?: Record<string, unknown>;
}

/** A factory of fresh, unique city fields, each in its own 10×10 plot. */
export function cityFieldsFactory(options: CityFieldsOptions): (overrides?: Record<string, unknown>) => Record<string, unknown> {
  let sequence = 0;
  return (overrides = {}) => {
    sequence += 1;
    const kana = [...String(sequence)].map((digit) => options.kanaDigits[Number(digit)]).join('');
    return {
      cityName: `${options.name} ${sequence} ${Math.random().toString(36).slice(2, 6)}`,
      cityNameKana: `${options.kana}${kana}`,
      ...options.extra,
      corners: square(sequence * 1000, options.z),
      count: 100,
      recaptcha: 'pass',
      ...overrides,
    };
  };
}
