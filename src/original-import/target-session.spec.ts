import type { Transaction } from '../database/transaction';
import { inTransactions, ROWS_PER_TRANSACTION, TargetSession } from './target-session';

describe(inTransactions.name, () => {
  it('writes a page in short transactions, each timed for the pacer, under the lock asked for', async () => {
    const transactions: Array<{ rows: readonly number[]; lock?: string }> = [];
    const paced: number[] = [];
    let current: { rows: readonly number[]; lock?: string } | undefined;
    const target: TargetSession = {
      dryRun: false,
      batch: async (work, options) => {
        current = { rows: [], lock: options?.lock };
        transactions.push(current);
        return work({} as Transaction);
      },
      after: (transactionMs) => {
        paced.push(transactionMs);
        return Promise.resolve();
      },
      batchSize: () => 5000,
    };
    const page = Array.from({ length: ROWS_PER_TRANSACTION * 2 + 7 }, (_, index) => index);
    await inTransactions(target, page, (_tx, chunk) => {
      current = { ...current, rows: chunk };
      transactions[transactions.length - 1] = current;
      return Promise.resolve();
    }, { lock: 'cities' });
    expect(transactions.map((transaction) => transaction.rows.length)).toEqual([ROWS_PER_TRANSACTION, ROWS_PER_TRANSACTION, 7]);
    expect(transactions.flatMap((transaction) => transaction.rows)).toEqual(page);
    expect(transactions.every((transaction) => transaction.lock === 'cities')).toBe(true);
    expect(paced).toHaveLength(3);
  });
});
