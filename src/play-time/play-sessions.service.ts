import { Injectable } from '@nestjs/common';
import { ApiError, detail, type ErrorDetail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/database-errors';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { epochSeconds } from './play-spans';
import { type PlaySpan, tallyPlay } from './play-tally';
import { PlaySessionsRepository, type NewSession } from './play-sessions.repository';
import { PlayTotalsRepository } from './play-totals.repository';
import { applyReport, type StoredSession } from './session-reports';

/** A session report as the route hands it over (validated field by field). */
export interface SessionReportInput {
  id: string;
  uuid: string;
  mcid: string;
  startedAt: Date;
  lastActiveAt?: Date;
  endedAt?: Date;
}

export interface SessionBatchInput {
  /** Who reports: the API key and the batch's server name (what `serverStartedAt` applies to). */
  reporter: string;
  serverStartedAt?: Date;
  sessions: readonly SessionReportInput[];
}

/** A session longer than this is refused: no player plays a month without a quit or a restart. */
export const MAX_SESSION_DAYS = 31;
/** Clocks differ a little: a report up to this far ahead of the service's clock is taken. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

const ORIGIN = 'game-server';

/**
 * The game server's session reports (docs/game-server.md, "Play time"): each report moves its
 * session on, and what it adds is counted into the days and eras in the same transaction.
 */
@Injectable()
export class PlaySessionsService {
  constructor(
    private readonly sessions: PlaySessionsRepository,
    private readonly totals: PlayTotalsRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  /** All or nothing. Returns how many reports changed something (`accepted`) and how many changed nothing (`skipped`). */
  async report(batch: SessionBatchInput): Promise<{ accepted: number; skipped: number }> {
    checkReports(batch, new Date());
    const run = (): Promise<{ accepted: number; skipped: number }> => this.unitOfWork.transaction((tx) => this.reportIn(tx, batch));
    try {
      return await run();
    } catch (error) {
      // Two batches creating one session at once (MySQL): the loser's insert hit the unique key; now it sees the winner's row.
      if (!isUniqueViolation(error)) {
        throw error;
      }
      return run();
    }
  }

  private async reportIn(tx: Transaction, batch: SessionBatchInput): Promise<{ accepted: number; skipped: number }> {
    const reports = batch.sessions.map((item) => ({
      sourceId: item.id,
      uuid: item.uuid.toLowerCase(),
      mcid: item.mcid,
      startedAt: epochSeconds(item.startedAt),
      lastActiveAt: item.lastActiveAt ? epochSeconds(item.lastActiveAt) : null,
      endedAt: item.endedAt ? epochSeconds(item.endedAt) : null,
    }));
    // Players first, in one order: a player not seen before gets a bare row (no first login).
    const names = new Map(reports.map((report) => [report.uuid, report.mcid]));
    await this.players.ensureAll(tx, [...names].map(([uuid, mcid]) => ({ uuid, mcid })));

    const stored = await this.sessions.getForUpdate(
      tx,
      ORIGIN,
      reports.map((report) => report.sourceId),
    );
    const created = new Map<string, StoredSession>();
    const updated = new Map<string, StoredSession>();
    const spans: PlaySpan[] = [];
    let accepted = 0;
    reports.forEach((report, index) => {
      const outcome = applyReport(created.get(report.sourceId) ?? updated.get(report.sourceId) ?? stored.get(report.sourceId), report);
      switch (outcome.kind) {
        case 'conflict':
          throw ApiError.conflict('playTime.sessionConflict', [detail(`sessions.${index}.${outcome.field}`, 'playTime.sessionConflict')]);
        case 'unchanged':
          return;
        case 'created':
          created.set(report.sourceId, outcome.session);
          break;
        case 'updated':
          (created.has(report.sourceId) ? created : updated).set(report.sourceId, outcome.session);
          break;
      }
      accepted += 1;
      if (outcome.span) {
        spans.push({ uuid: report.uuid, ...outcome.span });
      }
    });

    const now = new Date();
    await this.sessions.insert(
      tx,
      [...created.values()].map((session): NewSession => ({ ...session, origin: ORIGIN, reporter: batch.reporter })),
      now,
    );
    for (const session of updated.values()) {
      await this.sessions.update(tx, ORIGIN, session);
    }
    const tally = tallyPlay(spans, this.config.COMMUNITY_TIME_ZONE, this.config.eras);
    await this.totals.addDays(tx, tally.days);
    await this.totals.addRecorded(tx, tally.eras);

    // A player's newest session supersedes the older ones still open (a crash, or a quit never sent).
    for (const uuid of [...new Set([...created.values()].map((session) => session.uuid))].sort()) {
      const latest = await this.sessions.getLatestStart(tx, ORIGIN, uuid);
      if (latest) {
        await this.sessions.closeOpenBefore(tx, ORIGIN, uuid, latest);
      }
    }
    if (batch.serverStartedAt) {
      await this.sessions.closeReporterBefore(tx, batch.reporter, new Date(epochSeconds(batch.serverStartedAt) * 1000));
    }
    return { accepted, skipped: reports.length - accepted };
  }
}

/** The rules between a report's times (each time alone was validated by the route): a 400 naming every fault. */
export function checkReports(batch: SessionBatchInput, now: Date): void {
  const faults: ErrorDetail[] = [];
  const latest = now.getTime() + FUTURE_TOLERANCE_MS;
  const longest = MAX_SESSION_DAYS * 86_400_000;
  if (batch.serverStartedAt && batch.serverStartedAt.getTime() > latest) {
    faults.push(detail('serverStartedAt', msg('playTime.future', { field: 'serverStartedAt' })));
  }
  batch.sessions.forEach((item, index) => {
    const field = (name: string): string => `sessions.${index}.${name}`;
    for (const name of ['startedAt', 'lastActiveAt', 'endedAt'] as const) {
      const time = item[name];
      if (!time) {
        continue;
      }
      if (time.getTime() > latest) {
        faults.push(detail(field(name), msg('playTime.future', { field: field(name) })));
      } else if (name !== 'startedAt' && time.getTime() < item.startedAt.getTime()) {
        faults.push(detail(field(name), msg('playTime.beforeStart', { field: field(name) })));
      } else if (name !== 'startedAt' && time.getTime() - item.startedAt.getTime() > longest) {
        faults.push(detail(field(name), msg('playTime.tooLong', { field: field(name), days: MAX_SESSION_DAYS })));
      }
    }
    if (item.lastActiveAt && item.endedAt && item.endedAt.getTime() < item.lastActiveAt.getTime()) {
      faults.push(detail(field('endedAt'), msg('playTime.beforeLastActive', { field: field('endedAt') })));
    }
  });
  if (faults.length > 0) {
    const fields = [...new Set(faults.map((fault) => fault.field.split('.')[0]))];
    throw ApiError.badRequest(msg(fields.length === 1 ? 'validation.invalidParameter' : 'validation.invalidParameters', { fields }), faults);
  }
}
