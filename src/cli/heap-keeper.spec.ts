import { keepHeapSmall, shouldCollect } from './heap-keeper';

describe('shouldCollect', () => {
  it('collects once the heap has grown by the given amount since the last collection', () => {
    const mib = 1024 * 1024;
    expect(shouldCollect(100 * mib, 70 * mib, 32)).toBe(false);
    expect(shouldCollect(102 * mib, 70 * mib, 32)).toBe(true);
  });
});

describe('keepHeapSmall', () => {
  it('exposes the collector without a process flag and stops cleanly', () => {
    const keeper = keepHeapSmall({ growthMiB: 32, everyMs: 10 });
    keeper.stop();
  });
});
