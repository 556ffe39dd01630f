import type { Transaction } from '../database/transaction';
import { ImportReport } from './import-report';
import { SQLITE_LIMITS, type Run } from './import-run';
import { importFeatureTable, type FeatureTable, type ImportResult } from './feature-table';
import { UnreadableRow, type SourceRow } from './original-mapping';
import type { IdentityPlan } from './row-identity';
import type { SourceReader } from './source-reader';
import type { TargetSession } from './target-session';

/** A run over one in-memory table, paged two rows at a time, batches of at most three rows. */
function fakeRun(plan: IdentityPlan, rows: SourceRow[]): { run: Run } {
  const source = {
    identityOf: () => plan,
    identityPages: async function* (): AsyncGenerator<SourceRow[]> {
      for (let start = 0; start < rows.length; start += 2) {
        await Promise.resolve();
        yield rows.slice(start, start + 2);
      }
    },
  } as unknown as SourceReader;
  const target: TargetSession = {
    dryRun: false,
    batch: (work) => work({} as Transaction),
    after: () => Promise.resolve(),
    batchSize: () => 3,
  };
  const report = new ImportReport(false);
  return { run: { source, target, report, offset: 540, limits: SQLITE_LIMITS, cities: new Map(), achievements: new Map(), skipped: new Map() } };
}

interface Item {
  sourceId: string;
  uuid: string;
}

function table(write: (items: Item[]) => ImportResult, options: Partial<FeatureTable<Item>> = {}): FeatureTable<Item> {
  return {
    table: 't',
    wanted: ['uuid'],
    read: (row, sourceId) => {
      if (row.uuid === 'bad') {
        throw new UnreadableRow('uuid "bad" is not a uuid');
      }
      return row.uuid === 'skip' ? undefined : { sourceId, uuid: String(row.uuid) };
    },
    write: (_tx, items) => Promise.resolve(write(items)),
    ...options,
  };
}

describe(importFeatureTable.name, () => {
  const byId: IdentityPlan = { key: ['id'], unique: false, columns: ['id', 'uuid'] };

  it('counts every row once: imported, unchanged (the feature had it), excluded by a rule, or a problem named by its id', async () => {
    const { run } = fakeRun(byId, [
      { id: 1, uuid: 'a' },
      { id: 2, uuid: 'bad' },
      { id: 3, uuid: 'skip' },
      { id: 4, uuid: 'b' },
      { id: 5, uuid: 'c' },
    ]);
    const seen: string[][] = [];
    await importFeatureTable(
      run,
      table((items) => {
        seen.push(items.map((item) => item.sourceId));
        return { accepted: items.filter((item) => item.uuid !== 'c').length, skipped: items.filter((item) => item.uuid === 'c').length };
      }),
      () => undefined,
    );
    // Each page's readable rows in one call (pages of two rows here).
    expect(seen).toEqual([['1'], ['4'], ['5']]);
    expect(run.report.tables.t).toEqual({ sourceRows: 0, read: 5, imported: 2, unchanged: 1, skipped: 2, excluded: 1, problems: 1 });
    expect(run.report.problems).toEqual([{ table: 't', id: 2, reason: 'uuid "bad" is not a uuid', skipped: true }]);
  });

  it("reports the feature's refusals by the row's id, and refuses an answer that does not add up", async () => {
    const { run } = fakeRun(byId, [
      { id: 1, uuid: 'a' },
      { id: 2, uuid: 'b' },
    ]);
    await importFeatureTable(run, table(() => ({ accepted: 1, skipped: 0, refused: [{ sourceId: '2', reason: 'too long' }] })), () => undefined);
    expect(run.report.problems).toEqual([{ table: 't', id: 2, reason: 'refused by the feature: too long', skipped: true }]);
    const other = fakeRun(byId, [{ id: 1, uuid: 'a' }]).run;
    await expect(importFeatureTable(other, table(() => ({ accepted: 0, skipped: 0 })), () => undefined)).rejects.toThrow(/0 accepted, 0 skipped and 0 refused for 1 rows/);
  });

  it('one row per player: a later row of the same player is a problem naming the row that holds it; a repeated key is noted', async () => {
    const { run } = fakeRun(byId, [
      { id: 9, uuid: 'a' },
      { id: 9, uuid: 'b' },
      { id: 8, uuid: 'a' },
    ]);
    const imported: string[] = [];
    await importFeatureTable(
      run,
      table(
        (items) => {
          imported.push(...items.map((item) => item.sourceId));
          return { accepted: items.length, skipped: 0 };
        },
        { playerOf: (item) => item.uuid, descending: true },
      ),
      () => undefined,
    );
    expect(imported).toEqual(['9', '9#2']);
    expect(run.report.problems).toEqual([
      { table: 't', id: '9#2', reason: 'id repeats in the source (copy 2); this row is imported as 9#2', skipped: false },
      { table: 't', id: 8, reason: 'row 9 of this table already holds player a (one row per player; the newest is imported)', skipped: true },
    ]);
  });

  it('a keyless table gets one notice that its rows are identified by a hash', async () => {
    const { run } = fakeRun({ key: [], unique: false, columns: ['uuid'] }, [{ uuid: 'a' }, { uuid: 'a' }]);
    const imported: string[] = [];
    await importFeatureTable(
      run,
      table((items) => {
        imported.push(...items.map((item) => item.sourceId));
        return { accepted: items.length, skipped: 0 };
      }),
      () => undefined,
    );
    expect(imported).toEqual([expect.stringMatching(/^h:[0-9a-f]{40}$/), expect.stringMatching(/^h:[0-9a-f]{40}#2$/)]);
    expect(run.report.problems).toEqual([{ table: 't', id: null, reason: expect.stringMatching(/identified by a hash of all its columns \(1\)/) as string, skipped: false }]);
  });
});
