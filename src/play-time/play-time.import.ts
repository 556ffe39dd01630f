import { Injectable } from '@nestjs/common';
import { normaliseUuid } from '../common/identifiers';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { AwayService } from './away.service';
import { epochSeconds } from './play-spans';
import { PlaySessionsRepository, type NewSession } from './play-sessions.repository';
import { tallyPlay } from './play-tally';
import { type ImportedTotal, PlayTotalsRepository } from './play-totals.repository';
import { MAX_SESSION_DAYS } from './play-sessions.service';

/** What an import call did with its rows: accepted + skipped + refused.length = rows given. */
export interface PlayImportResult {
  /** Stored (or, for totals, replaced with a different value). */
  accepted: number;
  /** Already stored as given (a rerun), or a repeat of an earlier row of the same call. */
  skipped: number;
  /** Rows that cannot be stored, with the reason (the importer reports them by table and id). */
  refused: Array<{ sourceId: string; reason: string }>;
}

export interface ImportedSessionRow {
  sourceId: string;
  uuid: string;
  endedAt: Date;
  seconds: number;
}

export interface ImportedTotalRow {
  sourceId: string;
  uuid: string;
  seconds: number;
}

export interface ImportedAwayRow {
  sourceId: string;
  uuid: string;
  seconds: number;
  at: Date | null;
}

const ORIGIN = 'original';
/** The source ids the tables hold (128 characters: a table's key columns, or a hash of a whole row). */
const MAX_SOURCE_ID = 128;
/** What an integer column holds on both databases. */
const MAX_SECONDS = 2_147_483_647;

/** Checks the parts every row has; returns the lowercase hyphenated uuid, or a reason. */
function checkRow(row: { sourceId: string; uuid: string; seconds: number }, maxSeconds: number): { uuid: string } | { reason: string } {
  if (typeof row.sourceId !== 'string' || row.sourceId.length === 0 || row.sourceId.length > MAX_SOURCE_ID) {
    return { reason: `the source id must be 1 to ${MAX_SOURCE_ID} characters` };
  }
  const uuid = typeof row.uuid === 'string' ? normaliseUuid(row.uuid) : undefined;
  if (!uuid) {
    return { reason: 'the uuid is not a game UUID' };
  }
  if (!Number.isInteger(row.seconds) || row.seconds < 0 || row.seconds > maxSeconds) {
    return { reason: `the seconds must be an integer from 0 to ${maxSeconds}` };
  }
  return { uuid };
}

const validTime = (date: Date | null): boolean => date === null || (date instanceof Date && !Number.isNaN(date.getTime()));

/**
 * The original database's play time (`import:original`, docs/moving-from-original.md): every
 * method runs inside the importer's transaction and is idempotent by the source row's id.
 */
@Injectable()
export class PlayTimeImport {
  constructor(
    private readonly sessions: PlaySessionsRepository,
    private readonly totals: PlayTotalsRepository,
    private readonly away: AwayService,
    private readonly config: AppConfig,
  ) {}

  /**
   * `daily-onlinetime` rows (a session's seconds, written when it ended): the daily heatmap only,
   * as their time is inside the imported `onlinetime` total already. A row already imported is skipped.
   */
  async importSessionsIn(tx: Transaction, rows: readonly ImportedSessionRow[]): Promise<PlayImportResult> {
    const result: PlayImportResult = { accepted: 0, skipped: 0, refused: [] };
    const candidates: NewSession[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      const checked = checkRow(row, MAX_SESSION_DAYS * 86_400);
      if ('reason' in checked) {
        result.refused.push({ sourceId: String(row.sourceId), reason: checked.reason });
      } else if (!validTime(row.endedAt)) {
        result.refused.push({ sourceId: row.sourceId, reason: 'the end time is not a time' });
      } else if (seen.has(row.sourceId)) {
        result.skipped += 1;
      } else {
        seen.add(row.sourceId);
        const endedAt = epochSeconds(row.endedAt);
        const startedAt = endedAt - row.seconds;
        candidates.push({ origin: ORIGIN, reporter: null, sourceId: row.sourceId, uuid: checked.uuid, startedAt, countedUntil: endedAt, endedAt });
      }
    }
    const stored = await this.sessions.getStoredIds(
      tx,
      ORIGIN,
      candidates.map((session) => session.sourceId),
    );
    const fresh = candidates.filter((session) => !stored.has(session.sourceId));
    result.skipped += candidates.length - fresh.length;
    result.accepted = fresh.length;
    if (fresh.length > 0) {
      await this.sessions.insert(tx, fresh, new Date());
      const tally = tallyPlay(
        fresh.map((session) => ({ uuid: session.uuid, from: session.startedAt, to: session.countedUntil })),
        this.config.COMMUNITY_TIME_ZONE,
        null,
      );
      await this.totals.addDays(tx, tally.days);
    }
    return result;
  }

  /**
   * `onlinetime` rows (a player's total on the current server): the imported part of the last
   * era's total. A rerun replaces a row's part with the row's value (never adds it twice).
   */
  async importEraTotalsIn(tx: Transaction, rows: readonly ImportedTotalRow[]): Promise<PlayImportResult> {
    const result: PlayImportResult = { accepted: 0, skipped: 0, refused: [] };
    const eras = this.config.eras;
    const era = eras[eras.length - 1].key;
    const incoming = new Map<string, ImportedTotal>();
    for (const row of rows) {
      const checked = checkRow(row, MAX_SECONDS);
      if ('reason' in checked) {
        result.refused.push({ sourceId: String(row.sourceId), reason: checked.reason });
      } else if (incoming.has(row.sourceId)) {
        result.skipped += 1;
      } else {
        incoming.set(row.sourceId, { sourceId: row.sourceId, uuid: checked.uuid, era, seconds: row.seconds });
      }
    }
    const stored = await this.totals.getImportedForUpdate(tx, ORIGIN, [...incoming.keys()]);
    const fresh: ImportedTotal[] = [];
    const changes: Array<{ uuid: string; era: string; seconds: number }> = [];
    for (const total of incoming.values()) {
      const before = stored.get(total.sourceId);
      if (!before) {
        fresh.push(total);
        changes.push({ uuid: total.uuid, era: total.era, seconds: total.seconds });
      } else if (before.uuid === total.uuid && before.era === total.era && before.seconds === total.seconds) {
        result.skipped += 1;
        continue;
      } else {
        await this.totals.replaceImported(tx, ORIGIN, total);
        changes.push({ uuid: before.uuid, era: before.era, seconds: -before.seconds }, { uuid: total.uuid, era: total.era, seconds: total.seconds });
      }
      result.accepted += 1;
    }
    await this.totals.insertImported(tx, ORIGIN, fresh, new Date());
    await this.totals.addImported(tx, mergeByKey(changes));
    return result;
  }

  /** `afktime` rows (one per accumulation): added to the player's away total once. */
  async importAwayIn(tx: Transaction, rows: readonly ImportedAwayRow[]): Promise<PlayImportResult> {
    const result: PlayImportResult = { accepted: 0, skipped: 0, refused: [] };
    const valid: Array<{ sourceId: string; uuid: string; seconds: number; at: Date | null }> = [];
    for (const row of rows) {
      const checked = checkRow(row, MAX_SECONDS);
      if ('reason' in checked) {
        result.refused.push({ sourceId: String(row.sourceId), reason: checked.reason });
      } else if (!validTime(row.at)) {
        result.refused.push({ sourceId: row.sourceId, reason: 'the time is not a time' });
      } else {
        valid.push({ sourceId: row.sourceId, uuid: checked.uuid, seconds: row.seconds, at: row.at });
      }
    }
    result.accepted = await this.away.storeIn(tx, ORIGIN, valid);
    result.skipped = valid.length - result.accepted;
    return result;
  }
}

/** One row per (player, era), seconds summed. */
function mergeByKey(rows: ReadonlyArray<{ uuid: string; era: string; seconds: number }>): Array<{ uuid: string; era: string; seconds: number }> {
  const merged = new Map<string, { uuid: string; era: string; seconds: number }>();
  for (const row of rows) {
    const key = `${row.uuid}|${row.era}`;
    const entry = merged.get(key) ?? { uuid: row.uuid, era: row.era, seconds: 0 };
    entry.seconds += row.seconds;
    merged.set(key, entry);
  }
  return [...merged.values()];
}
