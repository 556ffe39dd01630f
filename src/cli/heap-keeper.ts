import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps a long bulk job's heap near what it really holds. V8 sizes its heap for the machine and
 * collects lazily, so an import that turns over millions of short-lived rows carries a hundred MB
 * of garbage it would never need (docs/benchmarks.md, "Importing the original database"). Without a process
 * flag: the collector is exposed at run time, and a full collection runs when the used heap has
 * grown by `growthMiB` since the last one.
 */
export interface HeapKeeper {
  stop(): void;
}

/** True when the heap has grown enough since the last collection to be worth a full one. Pure. */
export function shouldCollect(heapUsedBytes: number, afterLastBytes: number, growthMiB: number): boolean {
  return heapUsedBytes - afterLastBytes >= growthMiB * 1024 * 1024;
}

export function keepHeapSmall(options: { growthMiB: number; everyMs: number }): HeapKeeper {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  let afterLast = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    if (shouldCollect(process.memoryUsage().heapUsed, afterLast, options.growthMiB)) {
      collect();
      afterLast = process.memoryUsage().heapUsed;
    }
  }, options.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
