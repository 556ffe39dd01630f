/** The report of one `import:original` run (docs/moving-from-original.md). Pure, no framework imports. */

export const SOURCE_TABLES = [
  'jaoSuperAchievement2_Type',
  'login',
  'cities',
  'cities_new_waiting',
  'cities_corners_waiting',
  'cities_other_waiting',
  'discordlink',
  'jaoSuperAchievement2',
  'clubjaoafa',
] as const;
export type SourceTable = (typeof SOURCE_TABLES)[number];

/** Without these the source is not the original database: exit status 2. */
export const REQUIRED_TABLES: readonly SourceTable[] = ['cities', 'login'];

/** Problems listed per table at most; the count of the rest is reported in one more entry. */
export const MAX_PROBLEMS_PER_TABLE = 1000;

/**
 * What became of a table's rows. `read` is every row read (and equals the source's `COUNT(*)`,
 * `sourceRows`); `read = imported + unchanged + skipped`, `skipped = excluded + problems`:
 * excluded by a rule (refused logins, logins before the cutoff, repeats of one unlock, unlinked
 * chat links: counted, not listed), problems (each listed with its id and reason).
 */
export interface TableCounts {
  sourceRows: number;
  read: number;
  imported: number;
  unchanged: number;
  skipped: number;
  excluded: number;
  problems: number;
}

export interface Problem {
  table: string;
  id: number | string | null;
  reason: string;
  /** True when the row was not imported; false for a notice about a row that was (or a whole table). */
  skipped: boolean;
}

export interface RequestMapping {
  table: string;
  id: number;
  requestId: number;
}

/** A row imported under another id than the original's (cities with ids <= 0, achievements defined differently here). */
export interface Renumbering {
  table: string;
  id: number | string;
  newId: number;
}

export interface ImportReportJson {
  dryRun: boolean;
  tables: Record<string, TableCounts>;
  problems: Problem[];
  requests: RequestMapping[];
  renumbered: Renumbering[];
}

export type Outcome = 'imported' | 'unchanged' | 'excluded';

export class ImportReport {
  readonly tables: Record<string, TableCounts> = {};
  readonly problems: Problem[] = [];
  readonly requests: RequestMapping[] = [];
  readonly renumbered: Renumbering[] = [];
  private readonly problemCounts = new Map<string, number>();

  /** `onProblem` is told every problem, also those past the list's cap (`--report FILE`). */
  constructor(
    readonly dryRun: boolean,
    private readonly onProblem?: (problem: Problem) => void,
  ) {}

  counts(table: string): TableCounts {
    return (this.tables[table] ??= { sourceRows: 0, read: 0, imported: 0, unchanged: 0, skipped: 0, excluded: 0, problems: 0 });
  }

  /** The source's `COUNT(*)` of the table, in the run's snapshot. */
  sourceRows(table: string, rows: number): void {
    this.counts(table).sourceRows = rows;
  }

  /** Source rows and what became of them (`excluded`: skipped by a rule, counted, not listed). */
  count(table: string, outcome: Outcome, rows = 1): void {
    const counts = this.counts(table);
    counts.read += rows;
    if (outcome === 'excluded') {
      counts.skipped += rows;
      counts.excluded += rows;
    } else {
      counts[outcome] += rows;
    }
  }

  /** A notice about a row that was imported (or kept, or a whole table with `id` null). */
  problem(table: string, id: number | string | null, reason: string): void {
    this.list({ table, id, reason, skipped: false });
  }

  /** A row that was not imported because of `reason`. */
  skip(table: string, id: number | string | null, reason: string): void {
    const counts = this.counts(table);
    counts.read += 1;
    counts.skipped += 1;
    counts.problems += 1;
    this.list({ table, id, reason, skipped: true });
  }

  mapRequest(table: string, id: number, requestId: number): void {
    this.requests.push({ table, id, requestId });
  }

  renumber(table: string, id: number | string, newId: number): void {
    this.renumbered.push({ table, id, newId });
  }

  /** Whether every table reconciles with the source: read = COUNT(*), and the parts add up. */
  reconcile(): void {
    for (const [table, counts] of Object.entries(this.tables)) {
      if (counts.read !== counts.sourceRows) {
        this.problem(table, null, `read ${counts.read} rows but the source counts ${counts.sourceRows}: report this as a bug`);
      }
    }
  }

  toJSON(): ImportReportJson {
    const problems = [...this.problems];
    for (const [table, seen] of this.problemCounts) {
      if (seen > MAX_PROBLEMS_PER_TABLE) {
        problems.push({ table, id: null, reason: `${seen - MAX_PROBLEMS_PER_TABLE} more problems in this table are not listed (--report FILE lists them all)`, skipped: false });
      }
    }
    return { dryRun: this.dryRun, tables: this.tables, problems, requests: this.requests, renumbered: this.renumbered };
  }

  /** The same report in words. */
  toText(): string {
    const lines = [this.dryRun ? 'Dry run: nothing was written. A real run would do this:' : 'Import finished:'];
    for (const [table, counts] of Object.entries(this.tables)) {
      lines.push(
        `  ${table}: ${counts.read} read of ${counts.sourceRows}, ${counts.imported} imported, ${counts.unchanged} unchanged, ${counts.skipped} skipped (${counts.excluded} by rule, ${counts.problems} problems)`,
      );
    }
    const report = this.toJSON();
    if (report.problems.length > 0) {
      lines.push(`Problems (${report.problems.length}):`);
      lines.push(...report.problems.map((problem) => `  ${problem.table}${problem.id === null ? '' : ` #${problem.id}`}: ${problem.skipped ? 'skipped: ' : ''}${problem.reason}`));
    }
    if (report.renumbered.length > 0) {
      lines.push('New ids (original table #id -> id here):');
      lines.push(...report.renumbered.map((entry) => `  ${entry.table} #${entry.id} -> ${entry.newId}`));
    }
    if (report.requests.length > 0) {
      lines.push(`Requests (original table #id -> request id here):`);
      lines.push(...report.requests.map((request) => `  ${request.table} #${request.id} -> ${request.requestId}`));
    }
    return lines.join('\n');
  }

  private list(problem: Problem): void {
    this.onProblem?.(problem);
    const seen = (this.problemCounts.get(problem.table) ?? 0) + 1;
    this.problemCounts.set(problem.table, seen);
    if (seen <= MAX_PROBLEMS_PER_TABLE) {
      this.problems.push(problem);
    }
  }
}
