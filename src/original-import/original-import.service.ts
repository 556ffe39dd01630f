import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../database/unit-of-work';
import type { BatchPacer } from '../users/login-import.service';
import { CITIES_LOCK } from '../cities/city-lock';
import { ImportReport, Problem, REQUIRED_TABLES, SOURCE_TABLES } from './import-report';
import { MARIADB_LIMITS, Run, SQLITE_LIMITS } from './import-run';
import { OriginalCitiesImporter } from './original-cities.importer';
import { parseZoneOffset } from './original-mapping';
import { OriginalPlayersImporter } from './original-players.importer';
import { OriginalRequestsImporter } from './original-requests.importer';
import { OriginalSiteImporter } from './original-site.importer';
import { SourceReader } from './source-reader';
import { parseSourceUrl, SourceError } from './source-url';
import type { TargetSession } from './target-session';

/** Login records per transaction in a real run (the SQLite pacer adapts it down). */
const LOGIN_BATCH = 5000;

export interface OriginalImportOptions {
  from: string;
  /** The source password when it is not in the URL (`ORIGINAL_DB_PASSWORD`, `--password-file`). */
  password?: string;
  /** Told every problem as it is found, also those past the report's list cap (`--report FILE`). */
  onProblem?: (problem: Problem) => void;
  /** `±HH:MM`: the wall clock the source's dates were written in. */
  zone: string;
  dryRun: boolean;
  pacer?: BatchPacer;
  /** Told the row count of each table before it starts, and the rows read so far as it goes. */
  onTable?: (table: string, total: number) => void;
  onProgress?: (table: string, rows: number) => void;
}

/** Thrown inside a dry run's one transaction so that it rolls back. */
class DryRunRollback extends Error {}

/**
 * `import:original`: reads the original service's database (read-only) table by table, in pages,
 * and writes it here through the feature repositories (docs/moving-from-original.md).
 */
@Injectable()
export class OriginalImportService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly cities: OriginalCitiesImporter,
    private readonly requests: OriginalRequestsImporter,
    private readonly players: OriginalPlayersImporter,
    private readonly site: OriginalSiteImporter,
    private readonly dataSource: DataSource,
  ) {}

  async run(options: OriginalImportOptions): Promise<ImportReport> {
    const offset = parseZoneOffset(options.zone);
    if (offset === undefined) {
      throw new SourceError(`--source-time-zone ${JSON.stringify(options.zone)} is not an offset like +09:00.`);
    }
    const source = await SourceReader.open(parseSourceUrl(options.from, options.password), options.zone);
    try {
      const missing = REQUIRED_TABLES.filter((table) => !source.hasTable(table));
      if (missing.length > 0) {
        throw new SourceError(
          `The source database at ${source.where} has no ${missing.join(' or ')} table: it is not the original service's database (check the database name in --from).`,
        );
      }
      const report = new ImportReport(options.dryRun, options.onProblem);
      for (const table of SOURCE_TABLES.filter((name) => !source.hasTable(name))) {
        report.problem(table, null, `warning: the source has no ${table} table; nothing of it was imported`);
      }
      const limits = this.dataSource.options.type === 'mysql' ? MARIADB_LIMITS : SQLITE_LIMITS;
      const run = (target: TargetSession): Promise<void> =>
        this.importAll({ source, target, report, offset, limits, cities: new Map(), achievements: new Map(), skipped: new Map() }, options);
      if (options.dryRun) {
        await this.dryRun(run);
      } else {
        await run(this.realTarget(options.pacer));
      }
      report.reconcile();
      return report;
    } finally {
      await source.close();
    }
  }

  private async importAll(run: Run, options: OriginalImportOptions): Promise<void> {
    const progress = (table: string, rows: number): void => options.onProgress?.(table, rows);
    const start = async (table: string): Promise<boolean> => {
      if (!run.source.hasTable(table)) {
        return false;
      }
      const rows = await run.source.count(table);
      run.report.sourceRows(table, rows);
      options.onTable?.(table, rows);
      return true;
    };
    // Order matters: players (logins) before the cities they own, cities before their requests,
    // the catalogue before unlocks, logins before chat links and club accounts.
    if (await start('jaoSuperAchievement2_Type')) {
      await this.players.importAchievements(run, progress);
    }
    await start('login');
    await this.players.importLogins(run, progress);
    await start('cities');
    await this.cities.import(run, (rows) => progress('cities', rows));
    for (const table of ['cities_new_waiting', 'cities_corners_waiting', 'cities_other_waiting']) {
      await start(table);
    }
    await this.requests.import(run, progress);
    if (await start('discordlink')) {
      await this.players.importChatLinks(run, progress);
    }
    if (await start('jaoSuperAchievement2')) {
      await this.players.importUnlocks(run, progress);
    }
    if (await start('clubjaoafa')) {
      await this.players.importClubAccounts(run, progress);
    }
    // After the logins: the players site's tables belong to players (a feature adds a bare player the logins did not bring).
    await this.site.importAll(run, start, progress);
  }

  private realTarget(pacer: BatchPacer | undefined): TargetSession {
    return {
      dryRun: false,
      batch: (work, options) => this.unitOfWork.transaction(work, options),
      after: async (transactionMs) => pacer?.after(transactionMs),
      batchSize: () => pacer?.size() ?? LOGIN_BATCH,
    };
  }

  /** Every batch in one transaction, rolled back: later tables see what earlier ones would have written. */
  private async dryRun(run: (target: TargetSession) => Promise<void>): Promise<void> {
    try {
      await this.unitOfWork.transaction(
        async (tx) => {
          await run({ dryRun: true, batch: (work) => work(tx), after: () => Promise.resolve(), batchSize: () => LOGIN_BATCH });
          throw new DryRunRollback();
        },
        { lock: CITIES_LOCK },
      );
    } catch (error) {
      if (!(error instanceof DryRunRollback)) {
        throw error;
      }
    }
  }
}
