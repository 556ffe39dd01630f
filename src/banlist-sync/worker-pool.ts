/**
 * Runs `work` over `items` with at most `concurrency` calls in flight, in item order.
 * A rejected call rejects the whole pool once the calls already started have settled, so callers
 * that want to keep going turn failures into values themselves.
 */
export async function runPool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError('concurrency must be a positive integer');
  }
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure) {
      const index = next;
      next += 1;
      try {
        await work(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, () => worker()));
  if (failure) {
    throw failure.error;
  }
}
