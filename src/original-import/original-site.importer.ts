import { Injectable } from '@nestjs/common';
import { importFeatureTable, type FeatureTable } from './feature-table';
import type { Run } from './import-run';

type Progress = (table: string, rows: number) => void;

/**
 * The players site's source tables (play time, votes, groups, chat accounts, profile links,
 * punishments, mini-game results), each handed to its feature's import
 * (docs/moving-from-original.md, "What each table becomes"). Every table is optional.
 */
@Injectable()
export class OriginalSiteImporter {
  /** The tables in import order, built for this run's source (its layout decides the columns read). */
  private tables(_run: Run): Array<FeatureTable<unknown>> {
    return [];
  }

  /**
   * `start` registers a table the source has (its COUNT(*)) and says whether it has it; a missing
   * one is a warning, as for the other optional tables.
   */
  async importAll(run: Run, start: (table: string) => Promise<boolean>, onProgress: Progress): Promise<void> {
    for (const table of this.tables(run)) {
      if (await start(table.table)) {
        await importFeatureTable(run, table, (rows) => onProgress(table.table, rows));
      } else {
        run.report.problem(table.table, null, `warning: the source has no ${table.table} table; nothing of it was imported`);
      }
    }
  }
}
