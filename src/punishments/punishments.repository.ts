import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { PunishmentKind } from './punishment-kinds';

/** Who reported a punishment: the game server's route, or the original database's import. */
export type PunishmentOrigin = 'game-server' | 'original';

/** A punishment as it is stored, for every writer. */
export interface NewPunishment {
  kind: PunishmentKind;
  sourceId: string;
  uuid: string;
  mcid: string;
  reason: string;
  testment: string | null;
  issuedBy: string;
  issuedAt: Date;
  active: boolean;
  liftedAt: Date | null;
}

/** The one view of a stored punishment. */
export interface PunishmentRecord {
  id: number;
  kind: PunishmentKind;
  uuid: string;
  mcid: string;
  reason: string;
  testment: string | null;
  active: boolean;
  issuedBy: string;
  issuedAt: Date;
  liftedAt: Date | null;
  /** Set by a lift from the moderation API only. */
  liftedBy: string | null;
  liftReason: string | null;
  /** When the game server reported that operator's lift (its confirmation). */
  liftConfirmedAt: Date | null;
  updatedAt: Date;
}

/**
 * What the moderation list asks of punishments (docs/api.md, Moderation): every field optional;
 * `before` is the keyset bound of the page (newest first): rows issued before `at`, or at `at`
 * with an id below `idBelow`.
 */
export interface PunishmentFilter {
  kinds: readonly PunishmentKind[];
  active?: boolean;
  issuedBy?: string;
  uuid?: string;
  from?: Date;
  to?: Date;
  before?: { at: Date; idBelow: number };
}

/** A moderation operator's lift: who and why. */
export interface OperatorLift {
  liftedAt: Date;
  liftedBy: string;
  reason: string | null;
}

/** A punishment as the bans site lists it: with the player's current name and the record's last change. */
export interface NamedPunishmentRecord extends PunishmentRecord {
  /** The player's current game id here, else the name at the time. */
  playerName: string;
  updatedAt: Date;
}

interface PunishmentRow {
  id: number;
  kind: string;
  uuid: string;
  mcid: string;
  reason: string;
  testment: string | null;
  active: number | boolean;
  issuedBy: string;
  issuedAt: DbTime;
  liftedAt: DbTime | null;
  liftedBy: string | null;
  liftReason: string | null;
  liftConfirmedAt: DbTime | null;
  updatedAt: DbTime;
}

const PUNISHMENT_COLUMNS =
  'id, kind, player_uuid AS uuid, mcid, reason, testment, active, issued_by AS issuedBy, issued_at AS issuedAt, lifted_at AS liftedAt, ' +
  'lifted_by AS liftedBy, lift_reason AS liftReason, lift_confirmed_at AS liftConfirmedAt, updated_at AS updatedAt';
const PUNISHMENT = `SELECT ${PUNISHMENT_COLUMNS} FROM punishments`;
// IDX_punishments_player: one range of the index, newest first.
const FOR_PLAYER_SQL = `${PUNISHMENT} WHERE player_uuid = ? ORDER BY issued_at DESC, id DESC`;
const ANY_FOR_PLAYER_SQL = 'SELECT 1 AS found FROM punishments WHERE player_uuid = ? LIMIT 1';
const BY_ID_SQL = `${PUNISHMENT} WHERE id = ?`;
const BY_SOURCE_SQL = `${PUNISHMENT} WHERE origin = ? AND kind = ? AND source_id = ?`;
// The bans site's rows: the player's current name from players (primary key), else the name at the time.
const NAMED =
  'SELECT p.id, p.kind, p.player_uuid AS uuid, p.mcid, p.reason, p.testment, p.active, p.issued_by AS issuedBy, p.issued_at AS issuedAt, p.lifted_at AS liftedAt, ' +
  'p.lifted_by AS liftedBy, p.lift_reason AS liftReason, p.lift_confirmed_at AS liftConfirmedAt, COALESCE(known.mcid, p.mcid) AS playerName, p.updated_at AS updatedAt FROM punishments p LEFT JOIN players known ON known.uuid = p.player_uuid';
// IDX_punishments_kind_state (in force) and IDX_punishments_kind_time (every state): the first rows of one range, newest first.
const NAMED_NEWEST_FIRST = 'ORDER BY p.issued_at DESC, p.id DESC';
const NAMED_BY_ID_SQL = `${NAMED} WHERE p.kind = ? AND p.id = ?`;
const NAMED_FOR_PLAYER_SQL = `${NAMED} WHERE p.player_uuid = ? ${NAMED_NEWEST_FIRST}`;
const INSERT_COLUMNS = '(kind, origin, source_id, player_uuid, mcid, reason, testment, issued_by, issued_at, active, lifted_at, updated_at)';
/** 12 parameters a row: far below SQLite's and MySQL's placeholder limits. */
const INSERT_CHUNK = 500;

function toRecord(row: PunishmentRow): PunishmentRecord {
  return {
    id: Number(row.id),
    kind: row.kind as PunishmentKind,
    uuid: row.uuid,
    mcid: row.mcid,
    reason: row.reason,
    testment: row.testment,
    active: Boolean(Number(row.active)),
    issuedBy: row.issuedBy,
    issuedAt: dateOf(row.issuedAt),
    liftedAt: row.liftedAt === null ? null : dateOf(row.liftedAt),
    liftedBy: row.liftedBy,
    liftReason: row.liftReason,
    liftConfirmedAt: row.liftConfirmedAt === null ? null : dateOf(row.liftConfirmedAt),
    updatedAt: dateOf(row.updatedAt),
  };
}

function toNamedRecord(row: PunishmentRow & { playerName: string; updatedAt: DbTime }): NamedPunishmentRecord {
  return { ...toRecord(row), playerName: row.playerName, updatedAt: dateOf(row.updatedAt) };
}

/** Every query of `punishments`, and its one writer. */
@Injectable()
export class PunishmentsRepository {
  constructor(private readonly reader: SqlReader) {}

  /** A player's punishments, every kind and state, newest first. */
  async listForPlayer(uuid: string): Promise<PunishmentRecord[]> {
    return (await this.reader.all<PunishmentRow>(FOR_PLAYER_SQL, [uuid])).map(toRecord);
  }

  /** By the service's own id, committed data. */
  async getById(id: number): Promise<PunishmentRecord | null> {
    const row = await this.reader.one<PunishmentRow>(BY_ID_SQL, [id]);
    return row ? toRecord(row) : null;
  }

  /**
   * The moderation list: newest first (issued_at, then id), at most `limit`. The conditions are
   * fixed fragments joined by AND, every value a parameter; the kind/state/time indexes serve the
   * usual filters (IDX_punishments_kind_state, IDX_punishments_issuer, IDX_punishments_player).
   */
  async list(filter: PunishmentFilter, limit: number): Promise<PunishmentRecord[]> {
    if (filter.kinds.length === 0) {
      return [];
    }
    const where: string[] = [`kind IN (${filter.kinds.map(() => '?').join(', ')})`];
    const params: unknown[] = [...filter.kinds];
    if (filter.active !== undefined) {
      where.push('active = ?');
      params.push(filter.active ? 1 : 0);
    }
    if (filter.issuedBy !== undefined) {
      where.push('issued_by = ?');
      params.push(filter.issuedBy);
    }
    if (filter.uuid !== undefined) {
      where.push('player_uuid = ?');
      params.push(filter.uuid);
    }
    if (filter.from !== undefined) {
      where.push('issued_at >= ?');
      params.push(this.reader.time(filter.from));
    }
    if (filter.to !== undefined) {
      where.push('issued_at < ?');
      params.push(this.reader.time(filter.to));
    }
    if (filter.before !== undefined) {
      where.push('(issued_at < ? OR (issued_at = ? AND id < ?))');
      params.push(this.reader.time(filter.before.at), this.reader.time(filter.before.at), filter.before.idBelow);
    }
    params.push(limit);
    const rows = await this.reader.all<PunishmentRow>(`${PUNISHMENT} WHERE ${where.join(' AND ')} ORDER BY issued_at DESC, id DESC LIMIT ?`, params);
    return rows.map(toRecord);
  }

  /** Punishments of one kind (in force only, or every state), newest first; `limit` null: all of them. */
  async listOfKind(kind: PunishmentKind, activeOnly: boolean, limit: number | null): Promise<NamedPunishmentRecord[]> {
    const parameters: unknown[] = activeOnly ? [kind, 1] : [kind];
    const sql = `${NAMED} WHERE p.kind = ?${activeOnly ? ' AND p.active = ?' : ''} ${NAMED_NEWEST_FIRST}${limit === null ? '' : ' LIMIT ?'}`;
    const rows = await this.reader.all<PunishmentRow & { playerName: string; updatedAt: DbTime }>(sql, limit === null ? parameters : [...parameters, limit]);
    return rows.map(toNamedRecord);
  }

  /** How many punishments of one kind (in force only, or every state): a count over one index range. */
  async countOfKind(kind: PunishmentKind, activeOnly: boolean): Promise<number> {
    const row = await this.reader.one<{ count: number | string }>(`SELECT COUNT(*) AS count FROM punishments WHERE kind = ?${activeOnly ? ' AND active = ?' : ''}`, activeOnly ? [kind, 1] : [kind]);
    return Number(row?.count ?? 0);
  }

  /** One punishment of a kind by the service's id, with names. */
  async getNamed(kind: PunishmentKind, id: number): Promise<NamedPunishmentRecord | null> {
    const row = await this.reader.one<PunishmentRow & { playerName: string; updatedAt: DbTime }>(NAMED_BY_ID_SQL, [kind, id]);
    return row ? toNamedRecord(row) : null;
  }

  /** A player's punishments, every kind and state, newest first, with names. */
  async listNamedForPlayer(uuid: string): Promise<NamedPunishmentRecord[]> {
    return (await this.reader.all<PunishmentRow & { playerName: string; updatedAt: DbTime }>(NAMED_FOR_PLAYER_SQL, [uuid])).map(toNamedRecord);
  }

  async hasAnyForPlayer(uuid: string): Promise<boolean> {
    return (await this.reader.one<{ found: number }>(ANY_FOR_PLAYER_SQL, [uuid])) !== undefined;
  }

  /** Stores one punishment unless its (origin, kind, source id) is stored already; the new id, or null for a repeat. */
  async insertOne(tx: Transaction, origin: PunishmentOrigin, punishment: NewPunishment): Promise<number | null> {
    const { affectedRows, insertId } = await tx.run(`${tx.insertIgnore} INTO punishments ${INSERT_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, this.values(tx, origin, punishment));
    return affectedRows > 0 && insertId !== undefined ? insertId : null;
  }

  /** Stores many (the import), skipping those stored already; how many were new. */
  async insertMany(tx: Transaction, origin: PunishmentOrigin, punishments: readonly NewPunishment[]): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(punishments, INSERT_CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO punishments ${INSERT_COLUMNS} VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((punishment) => this.values(tx, origin, punishment)),
      );
      inserted += affectedRows;
    }
    return inserted;
  }

  /** The punishment as the transaction sees it (locked on MySQL, for a lift). */
  async getBySourceIn(tx: Transaction, origin: PunishmentOrigin, kind: PunishmentKind, sourceId: string): Promise<PunishmentRecord | null> {
    const row = await tx.one<PunishmentRow>(`${BY_SOURCE_SQL}${tx.forUpdate}`, [origin, kind, sourceId]);
    return row ? toRecord(row) : null;
  }

  /** By the service's own id, as the transaction sees it (locked on MySQL, for a lift). */
  async getByIdIn(tx: Transaction, id: number): Promise<PunishmentRecord | null> {
    const row = await tx.one<PunishmentRow>(`${BY_ID_SQL}${tx.forUpdate}`, [id]);
    return row ? toRecord(row) : null;
  }

  /** Lifts a punishment in force; false when it was lifted already (nothing changes). */
  async lift(tx: Transaction, id: number, liftedAt: Date): Promise<boolean> {
    const { affectedRows } = await tx.run('UPDATE punishments SET active = ?, lifted_at = ?, updated_at = ? WHERE id = ? AND active = ?', [
      0,
      tx.time(liftedAt),
      tx.time(new Date()),
      id,
      1,
    ]);
    return affectedRows > 0;
  }

  /**
   * An operator's lift (the moderation API) of a punishment in force: false when it was lifted
   * already, so of two operators lifting at once exactly one changes the row (the other's
   * conditional UPDATE matches nothing, after waiting for the first one's row lock on MySQL).
   */
  async liftByOperator(tx: Transaction, id: number, lift: OperatorLift): Promise<boolean> {
    const { affectedRows } = await tx.run('UPDATE punishments SET active = ?, lifted_at = ?, lifted_by = ?, lift_reason = ?, updated_at = ? WHERE id = ? AND active = ?', [
      0,
      tx.time(lift.liftedAt),
      lift.liftedBy,
      lift.reason,
      tx.time(new Date()),
      id,
      1,
    ]);
    return affectedRows > 0;
  }

  /**
   * The game server's report of a lift an operator made (the punishment is lifted already): kept
   * as its confirmation, once; the lift itself (time, who, why) is not changed. False when there is
   * nothing to confirm (a lift the game server made, or one confirmed before).
   */
  async confirmLift(tx: Transaction, id: number, reportedAt: Date): Promise<boolean> {
    const { affectedRows } = await tx.run('UPDATE punishments SET lift_confirmed_at = ?, updated_at = ? WHERE id = ? AND active = ? AND lifted_by IS NOT NULL AND lift_confirmed_at IS NULL', [
      tx.time(reportedAt),
      tx.time(new Date()),
      id,
      0,
    ]);
    return affectedRows > 0;
  }

  private values(tx: Transaction, origin: PunishmentOrigin, punishment: NewPunishment): unknown[] {
    return [
      punishment.kind,
      origin,
      punishment.sourceId,
      punishment.uuid,
      punishment.mcid,
      punishment.reason,
      punishment.testment,
      punishment.issuedBy,
      tx.time(punishment.issuedAt),
      punishment.active ? 1 : 0,
      punishment.liftedAt === null ? null : tx.time(punishment.liftedAt),
      tx.time(new Date()),
    ];
  }
}
