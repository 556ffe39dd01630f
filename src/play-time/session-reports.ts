/**
 * What a session report changes (docs/game-server.md, "Play time"). The game server reports each
 * session under its own id: when it starts (`startedAt`), while it goes on (`lastActiveAt`) and
 * when it ends (`endedAt`). A session counts from its start to the latest time reported for it;
 * each report that moves that time on adds the new stretch, so totals grow as reports arrive and a
 * re-sent or older report adds nothing. A session that has ended changes no more. Pure: times are
 * whole epoch seconds.
 */

export interface StoredSession {
  sourceId: string;
  uuid: string;
  startedAt: number;
  /** The latest time reported for the session: it counts up to here. */
  countedUntil: number;
  endedAt: number | null;
}

export interface SessionReport {
  sourceId: string;
  uuid: string;
  startedAt: number;
  lastActiveAt: number | null;
  endedAt: number | null;
}

export type ReportOutcome =
  /** `span`: the stretch [from, to) to add to the totals, null when none. */
  | { kind: 'created' | 'updated'; session: StoredSession; span: { from: number; to: number } | null }
  | { kind: 'unchanged'; session: StoredSession }
  /** The id names a session of another player, or one that started at another time. */
  | { kind: 'conflict'; field: 'uuid' | 'startedAt'; session: StoredSession };

/** Applies one report to the stored session of its id (undefined: not seen before). */
export function applyReport(stored: StoredSession | undefined, report: SessionReport): ReportOutcome {
  const reached = Math.max(report.startedAt, report.lastActiveAt ?? report.startedAt, report.endedAt ?? report.startedAt);
  if (!stored) {
    const session: StoredSession = {
      sourceId: report.sourceId,
      uuid: report.uuid,
      startedAt: report.startedAt,
      countedUntil: reached,
      endedAt: report.endedAt === null ? null : reached,
    };
    return { kind: 'created', session, span: reached > report.startedAt ? { from: report.startedAt, to: reached } : null };
  }
  if (stored.uuid !== report.uuid) {
    return { kind: 'conflict', field: 'uuid', session: stored };
  }
  if (stored.startedAt !== report.startedAt) {
    return { kind: 'conflict', field: 'startedAt', session: stored };
  }
  if (stored.endedAt !== null) {
    return { kind: 'unchanged', session: stored };
  }
  const countedUntil = Math.max(stored.countedUntil, reached);
  const endedAt = report.endedAt === null ? null : countedUntil;
  if (countedUntil === stored.countedUntil && endedAt === null) {
    return { kind: 'unchanged', session: stored };
  }
  const span = countedUntil > stored.countedUntil ? { from: stored.countedUntil, to: countedUntil } : null;
  return { kind: 'updated', session: { ...stored, countedUntil, endedAt }, span };
}
