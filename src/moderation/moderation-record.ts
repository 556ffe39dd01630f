import type { CommunityBanRecord } from '../community-bans/community-bans.reader';
import type { PunishmentRecord } from '../punishments/punishments.repository';
import { SOURCE_RANK, type RecordKey } from './record-cursor';
import { recordKindOfBan, recordKindOfPunishment, type RecordRef } from '../evidence/record-ref';

/** A record of either source in one shape (docs/api.md, Moderation). Pure. */
export interface ModerationRecord {
  ref: RecordRef;
  uuid: string;
  /** The game id the record names: a punishment's when issued; a ban-list record's as its reader names the player (null when unknown). */
  mcid: string | null;
  reason: string;
  issuedBy: string | null;
  issuedAt: Date;
  active: boolean;
  liftedAt: Date | null;
  liftedBy: string | null;
  liftReason: string | null;
  liftConfirmedAt: Date | null;
  updatedAt: Date;
  key: RecordKey;
}

/** A record as lists show it. */
export interface RecordSummary {
  kind: RecordRef['kind'];
  id: string;
  player: { uuid: string; mcid: string | null };
  reason: string;
  issuedBy: string | null;
  issuedAt: string;
  active: boolean;
  liftedAt: string | null;
  evidenceCount: number;
  hasNote: boolean;
}

/** A record as its own page shows it. */
export interface RecordDetail extends RecordSummary {
  liftedBy: string | null;
  liftReason: string | null;
  /** When the game server reported an operator's lift (it has applied it); null before, and for any other lift. */
  liftConfirmedAt: string | null;
  updatedAt: string;
}

export function fromPunishment(record: PunishmentRecord): ModerationRecord {
  return {
    ref: { kind: recordKindOfPunishment(record.kind), id: String(record.id) },
    uuid: record.uuid,
    mcid: record.mcid,
    reason: record.reason,
    issuedBy: record.issuedBy,
    issuedAt: record.issuedAt,
    active: record.active,
    liftedAt: record.liftedAt,
    liftedBy: record.liftedBy,
    liftReason: record.liftReason,
    liftConfirmedAt: record.liftConfirmedAt,
    updatedAt: record.updatedAt,
    key: { at: record.issuedAt, rank: SOURCE_RANK.punishments, id: record.id },
  };
}

/** The ban list's own lifts are not reported to this service: a record no longer in force has no lift time. */
export function fromCommunityBan(record: CommunityBanRecord): ModerationRecord {
  return {
    ref: { kind: recordKindOfBan(record.type), id: String(record.banId) },
    uuid: record.uuid,
    mcid: record.mcid,
    reason: record.reason,
    issuedBy: record.bannedBy,
    issuedAt: record.bannedAt,
    active: record.active,
    liftedAt: null,
    liftedBy: null,
    liftReason: null,
    liftConfirmedAt: null,
    updatedAt: record.updatedAt,
    key: { at: record.bannedAt, rank: SOURCE_RANK.communityBans, id: record.banId },
  };
}

/** What a list shows, given the player's current game id, the number of pictures and whether a note exists. */
export function summaryOf(record: ModerationRecord, currentMcid: string | null | undefined, evidenceCount: number, hasNote: boolean): RecordSummary {
  return {
    kind: record.ref.kind,
    id: record.ref.id,
    player: { uuid: record.uuid, mcid: currentMcid ?? record.mcid },
    reason: record.reason,
    issuedBy: record.issuedBy,
    issuedAt: record.issuedAt.toISOString(),
    active: record.active,
    liftedAt: record.liftedAt?.toISOString() ?? null,
    evidenceCount,
    hasNote,
  };
}

export function detailOf(summary: RecordSummary, record: ModerationRecord): RecordDetail {
  return {
    ...summary,
    liftedBy: record.liftedBy,
    liftReason: record.liftReason,
    liftConfirmedAt: record.liftConfirmedAt?.toISOString() ?? null,
    updatedAt: record.updatedAt.toISOString(),
  };
}
