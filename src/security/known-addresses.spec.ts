import { KnownAddresses } from './known-addresses';

describe(KnownAddresses.name, () => {
  it('keeps at most maxEntries pairs in memory, forgetting the oldest', async () => {
    const known = new KnownAddresses(undefined, 'test', 3600, { maxEntries: 50, maxBytes: 1024 * 1024 });
    for (let index = 0; index < 500; index += 1) {
      await known.remember(`account-${index}`, '192.0.2.1');
    }
    expect(known.held.entries).toBe(50);
    expect(await known.has('account-499', '192.0.2.1')).toBe(true);
    expect(await known.has('account-0', '192.0.2.1')).toBe(false);
  });

  it('keeps at most maxBytes (estimated), however long the keys', async () => {
    const known = new KnownAddresses(undefined, 'test', 3600, { maxEntries: 100_000, maxBytes: 32 * 1024 });
    for (let index = 0; index < 500; index += 1) {
      await known.remember(`${'a'.repeat(500)}-${index}`, '2001:db8::1');
      expect(known.held.bytes).toBeLessThanOrEqual(32 * 1024);
    }
    expect(await known.has(`${'a'.repeat(500)}-499`, '2001:db8::1')).toBe(true);
  });
});
