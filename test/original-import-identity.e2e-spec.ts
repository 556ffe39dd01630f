import { RowIdentities, type IdentityPlan } from '../src/original-import/row-identity';
import { SOURCE_PAGE_SIZE, SourceReader } from '../src/original-import/source-reader';
import { parseSourceUrl } from '../src/original-import/source-url';
import { createOriginalSource, OriginalSource } from './support/original-source';
import { newPlayer } from './support/test-app';

/**
 * Row identity and paging of the source tables that may have no id column (docs/moving-from-original.md,
 * "Row identity"): every row read once, under an identity unique in its table and the same on every run.
 */
describe('import:original: row identity and paging of tables without ids (e2e: a MariaDB source)', () => {
  let source: OriginalSource;
  let reader: SourceReader;
  const alice = newPlayer();
  const bob = newPlayer();

  /** Every row of a table with its identity, as the importer reads them. */
  async function readAll(table: string, plan: IdentityPlan, descending = false): Promise<Array<{ id: string; copy: number }>> {
    const identities = new RowIdentities(plan);
    const ids: Array<{ id: string; copy: number }> = [];
    for await (const page of reader.identityPages(table, plan, { descending })) {
      expect(page.length).toBeLessThanOrEqual(SOURCE_PAGE_SIZE);
      for (const row of page) {
        const { id, copy } = identities.next(row);
        ids.push({ id, copy });
      }
    }
    return ids;
  }

  beforeAll(async () => {
    source = await createOriginalSource(['afktime', 'onlinetime', 'jail', 'vote_monocraft', 'daily-onlinetime']);
    // 5,003 accumulations over two pages; three rows are identical (the same accumulation recorded thrice).
    const values = Array.from({ length: 5000 }, (_, index) => `('${index % 2 === 0 ? alice.uuid : bob.uuid}', ${index % 97}, '2020-01-01 00:00:00' + INTERVAL ${index} MINUTE)`);
    await source.query(`INSERT INTO afktime (uuid, seconds, created_at) VALUES ${values.join(', ')}`);
    await source.query("INSERT INTO afktime (uuid, seconds, created_at) VALUES (?, 60, '2019-01-01 00:00:00'), (?, 60, '2019-01-01 00:00:00'), (?, 60, '2019-01-01 00:00:00')", [alice.uuid, alice.uuid, alice.uuid]);
    // No key at all: identified by uuid; bob's total is recorded twice.
    await source.query('INSERT INTO onlinetime (player, uuid, onlinetime) VALUES (?, ?, 10), (?, ?, 20), (?, ?, 30)', ['Alice', alice.uuid, 'Bob', bob.uuid, 'Bob', bob.uuid]);
    await source.query("INSERT INTO jail (player, uuid, banned_by, reason, status, created_at) VALUES ('Alice', ?, 'Op', 'x', 1, '2020-01-01 00:00:00'), ('Bob', ?, 'Op', 'y', 0, '2020-01-02 00:00:00')", [
      alice.uuid,
      bob.uuid,
    ]);
    await source.query("INSERT INTO vote_monocraft (uuid, player, count) VALUES (?, 'Alice', '3'), (?, 'Bob', '4')", [alice.uuid, bob.uuid]);
    // A repeated id (no key): told apart by copy number.
    await source.query('CREATE TABLE repeated (id INT NULL, uuid VARCHAR(64), note VARCHAR(16))');
    await source.query("INSERT INTO repeated VALUES (7, 'a', 'x'), (7, 'a', 'y'), (8, 'b', 'z'), (NULL, 'c', 'w')");
    await source.query('CREATE TABLE stamped (uuid VARCHAR(64), note VARCHAR(16), noted DATE, recorded_on TIMESTAMP NULL, later DATETIME NULL)');
    reader = await SourceReader.open(parseSourceUrl(source.url), '+09:00');
  });

  afterAll(async () => {
    await reader?.close();
    await source?.drop();
  });

  it('a table without any key: a hash of every column, identical rows by copy number, every row once over several pages, the same ids on a second read', async () => {
    const plan = reader.identityOf('afktime', ['uuid', 'seconds']);
    expect(plan).toEqual({ key: [], unique: false, columns: ['created_at', 'seconds', 'uuid'] });
    const first = await readAll('afktime', plan);
    expect(first).toHaveLength(5003);
    expect(new Set(first.map((entry) => entry.id)).size).toBe(5003);
    const copies = first.filter((entry) => entry.copy > 1);
    expect(copies.map((entry) => entry.copy)).toEqual([2, 3]);
    expect(copies[0].id).toMatch(/^h:[0-9a-f]{40}#2$/);
    expect(await readAll('afktime', plan)).toEqual(first);
  });

  it('a table without a key but with a natural key: identified by it, a repeated value by copy number', async () => {
    const plan = reader.identityOf('onlinetime', ['onlinetime'], [['uuid']]);
    expect(plan).toEqual({ key: ['uuid'], unique: false, columns: ['uuid', 'onlinetime'] });
    const ids = (await readAll('onlinetime', plan)).map((entry) => entry.id).sort();
    expect(ids).toEqual([alice.uuid, bob.uuid, `${bob.uuid}#2`].sort());
  });

  it('an id column wins; a primary key is paged by key, in either direction', async () => {
    const plan = reader.identityOf('jail', ['uuid', 'status'], [['uuid']]);
    expect(plan).toEqual({ key: ['id'], unique: true, columns: ['id', 'uuid', 'status'] });
    expect((await readAll('jail', plan)).map((entry) => entry.id)).toEqual(['1', '2']);
    expect((await readAll('jail', plan, true)).map((entry) => entry.id)).toEqual(['2', '1']);
  });

  it("the source's own unique key where there is no id column", async () => {
    const plan = reader.identityOf('vote_monocraft', ['count']);
    expect(plan).toEqual({ key: ['uuid'], unique: true, columns: ['uuid', 'count'] });
    expect((await readAll('vote_monocraft', plan)).map((entry) => entry.id)).toEqual([alice.uuid, bob.uuid].sort());
  });

  it('a repeated id that no key guards: copies numbered, NULL spelled out', async () => {
    const plan = reader.identityOf('repeated', ['uuid', 'note']);
    expect(plan.unique).toBe(false);
    expect((await readAll('repeated', plan)).map((entry) => entry.id)).toEqual(['NULL', '7', '7#2', '8']);
  });

  it('the time column: the named one where the table has it, else its first DATETIME or TIMESTAMP column', () => {
    expect(reader.timeColumnOf('daily-onlinetime', ['created_at'])).toBe('created_at');
    expect(reader.timeColumnOf('stamped', ['created_at'])).toBe('recorded_on');
    expect(reader.timeColumnOf('repeated', ['created_at'])).toBeUndefined();
  });
});
