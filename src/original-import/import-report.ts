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

export interface TableCounts {
  read: number;
  imported: number;
  unchanged: number;
  skipped: number;
}

export interface Problem {
  table: string;
  id: number | string | null;
  reason: string;
}

export interface RequestMapping {
  table: string;
  id: number;
  requestId: number;
}

export interface ImportReportJson {
  dryRun: boolean;
  tables: Record<string, TableCounts>;
  problems: Problem[];
  requests: RequestMapping[];
}

export type Outcome = 'imported' | 'unchanged' | 'skipped';

export class ImportReport {
  readonly tables: Record<string, TableCounts> = {};
  readonly problems: Problem[] = [];
  readonly requests: RequestMapping[] = [];
  private readonly problemCounts = new Map<string, number>();

  constructor(readonly dryRun: boolean) {}

  counts(table: string): TableCounts {
    return (this.tables[table] ??= { read: 0, imported: 0, unchanged: 0, skipped: 0 });
  }

  /** One source row and what became of it. */
  count(table: string, outcome: Outcome, rows = 1): void {
    const counts = this.counts(table);
    counts.read += rows;
    counts[outcome] += rows;
  }

  /** A row imported, skipped or kept, with the reason a user should know; `id` null for the whole table. */
  problem(table: string, id: number | string | null, reason: string): void {
    const seen = (this.problemCounts.get(table) ?? 0) + 1;
    this.problemCounts.set(table, seen);
    if (seen <= MAX_PROBLEMS_PER_TABLE) {
      this.problems.push({ table, id, reason });
    }
  }

  /** A row that was not imported because of `reason`. */
  skip(table: string, id: number | string | null, reason: string): void {
    this.count(table, 'skipped');
    this.problem(table, id, reason);
  }

  mapRequest(table: string, id: number, requestId: number): void {
    this.requests.push({ table, id, requestId });
  }

  toJSON(): ImportReportJson {
    const problems = [...this.problems];
    for (const [table, seen] of this.problemCounts) {
      if (seen > MAX_PROBLEMS_PER_TABLE) {
        problems.push({ table, id: null, reason: `${seen - MAX_PROBLEMS_PER_TABLE} more problems in this table are not listed` });
      }
    }
    return { dryRun: this.dryRun, tables: this.tables, problems, requests: this.requests };
  }

  /** The same report in words. */
  toText(): string {
    const lines = [this.dryRun ? 'Dry run: nothing was written. A real run would do this:' : 'Import finished:'];
    for (const [table, counts] of Object.entries(this.tables)) {
      lines.push(`  ${table}: ${counts.read} read, ${counts.imported} imported, ${counts.unchanged} unchanged, ${counts.skipped} skipped`);
    }
    const report = this.toJSON();
    if (report.problems.length > 0) {
      lines.push(`Problems (${report.problems.length}):`);
      lines.push(...report.problems.map((problem) => `  ${problem.table}${problem.id === null ? '' : ` #${problem.id}`}: ${problem.reason}`));
    }
    if (report.requests.length > 0) {
      lines.push(`Requests (original table #id -> request id here):`);
      lines.push(...report.requests.map((request) => `  ${request.table} #${request.id} -> ${request.requestId}`));
    }
    return lines.join('\n');
  }
}
