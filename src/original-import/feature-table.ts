import type { Transaction } from '../database/transaction';
import { chunks } from '../database/chunks';
import type { Run, TargetLimits } from './import-run';
import { UnreadableRow, type SourceRow } from './original-mapping';
import { RowIdentities, type IdentityPlan } from './row-identity';

/**
 * What a feature's `import…In(tx, rows)` answers: rows stored now, rows it already had (by the
 * source id), and rows it cannot store, by source id with the reason (accepted + skipped +
 * refused = rows given).
 */
export interface ImportResult {
  accepted: number;
  skipped: number;
  refused?: ReadonlyArray<{ sourceId: string; reason: string }>;
  /** Notices about rows stored now (listed in the report, the row counted as imported). */
  notices?: ReadonlyArray<{ sourceId: string; reason: string }>;
}

/** What a table's reader may tell besides the row: a notice about a row that is imported anyway. */
export interface ReadContext {
  /** Minutes east of UTC of the source's wall clock. */
  offset: number;
  /** What the target's columns hold (a TEXT on MariaDB: 65,535 bytes). */
  limits: TargetLimits;
  /** A notice about this row (imported, with something left out), listed in the report. */
  notice(reason: string): void;
}

/**
 * One source table the players site's features import (docs/moving-from-original.md, "Row
 * identity"): how a row is identified, read and handed to the feature. Built per run, once the
 * source's layout is known.
 */
export interface FeatureTable<T> {
  table: string;
  /** The columns read besides the row identity's. */
  wanted: readonly string[];
  /** Keys that identify a row where the source has neither an `id` column nor a unique key (`uuid` of a one-row-per-player table). */
  naturalKeys?: ReadonlyArray<readonly string[]>;
  /** Read newest first (by the key): where one row per player counts, the newest one wins. */
  descending?: boolean;
  /** Columns (read, where the table has them) that order the rows of one key, after it: a time column, so the newest wins. */
  thenBy?: readonly string[];
  /** One row per player (totals): a second row of the same player is reported and not imported. */
  playerOf?: (item: T) => string;
  /** The row as the feature takes it; undefined: excluded by a rule (counted, not listed); throws UnreadableRow. */
  read(row: SourceRow, id: string, context: ReadContext): T | undefined;
  /** Writes rows in the caller's transaction, idempotent by their source id. */
  write(tx: Transaction, items: T[]): Promise<ImportResult>;
}

/**
 * Rows handed to a feature per transaction at most (the SQLite pacer makes it smaller): each row
 * costs a feature a few statements (the row and the totals it keeps up to date).
 */
export const FEATURE_ROWS_PER_TRANSACTION = 500;

/** A row's id in the report: a number where the identity is a numeric `id`. */
function reportId(plan: IdentityPlan, id: string): number | string {
  return plan.key.length === 1 && plan.key[0] === 'id' && /^-?\d{1,15}$/.test(id) ? Number(id) : id;
}

/**
 * Reads a table in pages of its row identity and hands every readable row to its feature, in short
 * paced transactions. Every row read is counted once: imported (new here), unchanged (the feature
 * had it by its source id: a second run, or the rest of a cut-off one), excluded by a rule, or a
 * problem listed with its table and identity.
 */
export async function importFeatureTable<T>(run: Run, definition: FeatureTable<T>, onProgress: (rows: number) => void): Promise<void> {
  const { table } = definition;
  const plan = run.source.identityOf(table, definition.wanted, definition.naturalKeys ?? []);
  run.report.counts(table);
  if (plan.key.length === 0) {
    run.report.problem(table, null, `notice: the table has no key columns; each row is identified by a hash of all its columns (${plan.columns.length}), identical rows by their copy number`);
  }
  const identities = new RowIdentities(plan);
  const players = new Map<string, string>();
  let rows = 0;
  for await (const page of run.source.identityPages(table, plan, { descending: definition.descending, thenBy: definition.thenBy })) {
    const items: T[] = [];
    for (const sourceRow of page) {
      const { id, copy } = identities.next(sourceRow);
      const shownId = reportId(plan, id);
      const context: ReadContext = { offset: run.offset, limits: run.limits, notice: (reason) => run.report.problem(table, shownId, reason) };
      let item: T | undefined;
      try {
        item = definition.read(sourceRow, id, context);
      } catch (error) {
        if (error instanceof UnreadableRow) {
          run.report.skip(table, shownId, error.message);
          continue;
        }
        throw error;
      }
      if (item === undefined) {
        run.report.count(table, 'excluded');
        continue;
      }
      const player = definition.playerOf?.(item);
      if (player !== undefined) {
        const holder = players.get(player);
        if (holder !== undefined) {
          run.report.skip(table, shownId, `row ${holder} of this table already holds player ${player} (one row per player; ${definition.descending ? 'the newest' : 'the first'} is imported)`);
          continue;
        }
        players.set(player, id);
      }
      if (copy > 1 && plan.key.length > 0) {
        context.notice(`${plan.key.join(', ')} repeats in the source (copy ${copy}); this row is imported as ${id}`);
      }
      items.push(item);
    }
    for (const chunk of chunks(items, Math.min(FEATURE_ROWS_PER_TRANSACTION, run.target.batchSize()))) {
      const started = performance.now();
      const result = await run.target.batch((tx) => definition.write(tx, chunk));
      await run.target.after(performance.now() - started);
      const refused = result.refused ?? [];
      if (result.accepted + result.skipped + refused.length !== chunk.length) {
        throw new Error(`${table}: the feature answered ${result.accepted} accepted, ${result.skipped} skipped and ${refused.length} refused for ${chunk.length} rows`);
      }
      run.report.count(table, 'imported', result.accepted);
      run.report.count(table, 'unchanged', result.skipped);
      for (const refusal of refused) {
        run.report.skip(table, reportId(plan, refusal.sourceId), `refused by the feature: ${refusal.reason}`);
      }
      for (const notice of result.notices ?? []) {
        run.report.problem(table, reportId(plan, notice.sourceId), notice.reason);
      }
    }
    rows += page.length;
    onProgress(rows);
  }
}

/** A table's import with its row type hidden, so tables of different rows go in one list. */
export interface TableImport {
  table: string;
  import(run: Run, onProgress: (rows: number) => void): Promise<void>;
}

export function tableImport<T>(definition: FeatureTable<T>): TableImport {
  return { table: definition.table, import: (run, onProgress) => importFeatureTable(run, definition, onProgress) };
}
