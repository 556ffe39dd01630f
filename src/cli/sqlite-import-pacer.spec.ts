import { SqliteImportPacer } from './sqlite-import-pacer';

describe(SqliteImportPacer.name, () => {
  it('shrinks batches whose transaction held the lock too long and grows quick ones, within bounds', async () => {
    const pacer = new SqliteImportPacer(5000);
    expect(pacer.size()).toBe(5000);
    await pacer.after(400);
    expect(pacer.size()).toBe(2500);
    await pacer.after(70);
    expect(pacer.size()).toBe(2500);
    for (let step = 0; step < 10; step += 1) {
      await pacer.after(500);
    }
    expect(pacer.size()).toBe(25);
    for (let step = 0; step < 20; step += 1) {
      await pacer.after(1);
    }
    expect(pacer.size()).toBe(5000);
    expect(new SqliteImportPacer(10).size()).toBe(10);
  });

  it('pauses after each transaction', async () => {
    const pacer = new SqliteImportPacer(1000);
    const started = performance.now();
    await pacer.after(60);
    expect(performance.now() - started).toBeGreaterThanOrEqual(9);
  });

  it('takes its own floor, target and pause (import:original: at least 250 rows, a 30 ms pause)', async () => {
    const pacer = new SqliteImportPacer(5000, { targetTransactionMs: 30, minBatch: 250, pauseMs: 30 });
    await pacer.after(61);
    expect(pacer.size()).toBe(2500);
    await pacer.after(45);
    expect(pacer.size()).toBe(2500);
    for (let step = 0; step < 10; step += 1) {
      await pacer.after(500);
    }
    expect(pacer.size()).toBe(250);
    const started = performance.now();
    await pacer.after(40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });
});
