import { SqlReader } from '../src/database/sql-reader';
import { TestApp } from './support/test-app';
import { testDatabaseKind } from './support/test-database';

/*
 * The one read path on the real database (docs/design-and-performance.md, "Reads share a round
 * trip on MySQL"): reads issued together come back each with its own rows and its own error,
 * and nothing sent through it can write.
 */
describe(`SqlReader on ${testDatabaseKind}`, () => {
  let app: TestApp;
  let reader: SqlReader;

  beforeAll(async () => {
    app = await TestApp.start();
    reader = app.app.get(SqlReader);
    await app.dataSource.query('CREATE TABLE read_probe (id INTEGER PRIMARY KEY, label VARCHAR(20))');
    await app.dataSource.query("INSERT INTO read_probe (id, label) VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  });

  afterAll(async () => {
    await app.stop();
  });

  it('answers many reads issued at once, each with its own rows, parameters in order', async () => {
    const reads = Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0
        ? reader.one<{ label: string; asked: number }>('SELECT label, ? AS asked FROM read_probe WHERE id = ?', [index, (index % 3) + 1])
        : reader.all<{ id: number }>('SELECT id FROM read_probe WHERE id >= ? ORDER BY id', [(index % 3) + 1]),
    );
    const answers = await Promise.all(reads);
    answers.forEach((answer, index) => {
      if (index % 2 === 0) {
        expect(answer).toEqual({ label: ['one', 'two', 'three'][index % 3], asked: index });
      } else {
        expect((answer as Array<{ id: number }>).map((row) => Number(row.id))).toEqual([1, 2, 3].slice(index % 3));
      }
    });
  });

  it('gives a failing read its error and the reads beside it their rows', async () => {
    const [before, broken, after] = await Promise.allSettled([
      reader.one<{ label: string }>('SELECT label FROM read_probe WHERE id = ?', [1]),
      reader.one('SELECT label FROM no_such_table WHERE id = ?', [1]),
      reader.one<{ label: string }>('SELECT label FROM read_probe WHERE id = ?', [3]),
    ]);
    expect(before).toEqual({ status: 'fulfilled', value: { label: 'one' } });
    expect(broken.status).toBe('rejected');
    expect(after).toEqual({ status: 'fulfilled', value: { label: 'three' } });
  });

  it('cannot write, alone or beside other reads, whatever the text', async () => {
    const attempts = await Promise.allSettled([
      reader.one('SELECT label FROM read_probe WHERE id = ?', [2]),
      reader.all("UPDATE read_probe SET label = 'changed' WHERE id = ?", [2]),
      reader.all("SELECT 1; UPDATE read_probe SET label = 'changed' WHERE id = 3", []),
    ]);
    expect(attempts[0].status).toBe('fulfilled');
    expect(attempts[1].status).toBe('rejected');
    expect(attempts[2].status).toBe('rejected');
    await expect(reader.all(`DELETE FROM read_probe`, [])).rejects.toBeDefined();
    const rows = await app.dataSource.query<Array<{ label: string }>>('SELECT label FROM read_probe ORDER BY id');
    expect(rows.map((row) => row.label)).toEqual(['one', 'two', 'three']);
  });
});
