/** Splits rows into statements of at most `size` rows, to stay within the drivers' placeholder limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    result.push(items.slice(start, start + size));
  }
  return result;
}
