import { SqliteImportPacer } from './sqlite-import-pacer';

describe(SqliteImportPacer.name, () => {
  it('shrinks batches whose transaction held the lock over twice 30 ms, grows quick ones, within bounds (at least 250 rows)', async () => {
    const pacer = new SqliteImportPacer(5000);
    expect(pacer.size()).toBe(5000);
    await pacer.after(61);
    expect(pacer.size()).toBe(2500);
    await pacer.after(45);
    expect(pacer.size()).toBe(2500);
    for (let step = 0; step < 10; step += 1) {
      await pacer.after(500);
    }
    expect(pacer.size()).toBe(250);
    for (let step = 0; step < 20; step += 1) {
      await pacer.after(1);
    }
    expect(pacer.size()).toBe(5000);
    // A batch size below the floor is kept.
    expect(new SqliteImportPacer(10).size()).toBe(10);
  });

  it('pauses 30 ms after each transaction, longer than a waiting server write retry step under 128 ms', async () => {
    const pacer = new SqliteImportPacer(1000);
    const started = performance.now();
    await pacer.after(40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });

  it('takes its own floor, target and pause', async () => {
    const pacer = new SqliteImportPacer(5000, { targetTransactionMs: 50, minBatch: 25, pauseMs: 5 });
    await pacer.after(101);
    expect(pacer.size()).toBe(2500);
    for (let step = 0; step < 10; step += 1) {
      await pacer.after(500);
    }
    expect(pacer.size()).toBe(25);
  });
});
