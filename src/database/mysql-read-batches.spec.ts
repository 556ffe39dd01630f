import type { DeadlinePool } from './mysql-deadlines';
import { MysqlReadBatches } from './mysql-read-batches';

/** A pool that answers each statement of a command with `[{ statement }]`, or fails as told. */
function fakePool(fail?: (sql: string) => Error | undefined): { pool: DeadlinePool; commands: Array<{ sql: string; values: readonly unknown[] }> } {
  const commands: Array<{ sql: string; values: readonly unknown[] }> = [];
  const pool = {
    query: (sql: string, values: readonly unknown[]) => {
      commands.push({ sql, values });
      const error = fail?.(sql);
      if (error) {
        return Promise.reject(error);
      }
      const statements = sql.split(';\n');
      const results = statements.map((statement) => [{ statement }]);
      return Promise.resolve(statements.length === 1 ? results[0] : results);
    },
  } as unknown as DeadlinePool;
  return { pool, commands };
}

describe(MysqlReadBatches.name, () => {
  it('sends the reads of one turn as one command, each read getting its own rows', async () => {
    const { pool, commands } = fakePool();
    const batches = new MysqlReadBatches(pool);
    const answers = await Promise.all([batches.read('SELECT 1 FROM a WHERE x = ?', [1]), batches.read('SELECT 2 FROM b WHERE y = ?;', [2]), batches.read('SELECT 3', [])]);
    expect(commands).toEqual([{ sql: 'SELECT 1 FROM a WHERE x = ?;\nSELECT 2 FROM b WHERE y = ?;\nSELECT 3', values: [1, 2] }]);
    expect(answers).toEqual([[{ statement: 'SELECT 1 FROM a WHERE x = ?' }], [{ statement: 'SELECT 2 FROM b WHERE y = ?' }], [{ statement: 'SELECT 3' }]]);
  });

  it('sends a read alone when it is the only one of its turn, and a later turn in a command of its own', async () => {
    const { pool, commands } = fakePool();
    const batches = new MysqlReadBatches(pool);
    await batches.read('SELECT 1', []);
    await batches.read('SELECT 2', []);
    expect(commands.map((command) => command.sql)).toEqual(['SELECT 1', 'SELECT 2']);
  });

  it('splits a large turn into commands of at most the bound', async () => {
    const { pool, commands } = fakePool();
    const batches = new MysqlReadBatches(pool, 4);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => batches.read(`SELECT ${index}`, [])));
    expect(commands.map((command) => command.sql.split(';\n').length)).toEqual([4, 4, 2]);
    expect(answers.map((rows) => (rows as Array<{ statement: string }>)[0].statement)).toEqual(Array.from({ length: 10 }, (_, index) => `SELECT ${index}`));
  });

  it('gives a failing statement its error and the others their rows, sending each again alone', async () => {
    const { pool, commands } = fakePool((sql) => (sql.includes('broken') ? Object.assign(new Error('no such table'), { code: 'ER_NO_SUCH_TABLE' }) : undefined));
    const batches = new MysqlReadBatches(pool);
    const [good, bad, alsoGood] = await Promise.allSettled([batches.read('SELECT 1', []), batches.read('SELECT broken', []), batches.read('SELECT 3', [])]);
    expect(good).toEqual({ status: 'fulfilled', value: [{ statement: 'SELECT 1' }] });
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'ER_NO_SUCH_TABLE' } });
    expect(alsoGood).toEqual({ status: 'fulfilled', value: [{ statement: 'SELECT 3' }] });
    expect(commands).toHaveLength(4);
  });

  it('fails every read of a command that failed as a whole, at once, without sending them again', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { pool, commands } = fakePool(() => unreachable);
    const batches = new MysqlReadBatches(pool);
    const results = await Promise.allSettled([batches.read('SELECT 1', []), batches.read('SELECT 2', [])]);
    expect(results).toEqual([
      { status: 'rejected', reason: unreachable },
      { status: 'rejected', reason: unreachable },
    ]);
    expect(commands).toHaveLength(1);
  });

  it('fails every read at once when the server refuses the connection (too many connections), sending nothing again', async () => {
    const full = Object.assign(new Error('Too many connections'), { code: 'ER_CON_COUNT_ERROR', fatal: true });
    const { pool, commands } = fakePool(() => full);
    const batches = new MysqlReadBatches(pool);
    const results = await Promise.allSettled([batches.read('SELECT 1', []), batches.read('SELECT 2', [])]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(commands).toHaveLength(1);
  });

  it('refuses a read of several statements, which would shift the answers of the reads after it', async () => {
    const { pool, commands } = fakePool();
    const batches = new MysqlReadBatches(pool);
    await expect(batches.read('SELECT 1; SELECT 2', [])).rejects.toThrow('A read is one statement.');
    expect(commands).toEqual([]);
  });
});
