/**
 * The one mapping between the record kinds (src/evidence/record-ref.ts, shared by the bans site,
 * the evidence pictures and the moderation API) and the features that keep the records
 * (docs/api.md, Moderation). Pure.
 *
 * - `jail`, `chatban`, `eban`, `vban`: punishments (src/punishments/); the mute is `chatjail` there.
 * - `gban`, `lban`: this community's own records of the external ban list (`global`, `local`).
 */
import type { RecordKind } from '../evidence/record-ref';
import type { PunishmentKind } from '../punishments/punishment-kinds';

export type PunishmentRecordKind = 'jail' | 'chatban' | 'eban' | 'vban';
export type BanRecordKind = 'gban' | 'lban';
export type BanType = 'global' | 'local';

const PUNISHMENT_KIND: Record<PunishmentRecordKind, PunishmentKind> = { jail: 'jail', chatban: 'chatjail', eban: 'eban', vban: 'vban' };
const RECORD_KIND_OF_PUNISHMENT: Record<PunishmentKind, PunishmentRecordKind> = { jail: 'jail', chatjail: 'chatban', eban: 'eban', vban: 'vban' };
const BAN_TYPE: Record<BanRecordKind, BanType> = { gban: 'global', lban: 'local' };
const RECORD_KIND_OF_BAN: Record<BanType, BanRecordKind> = { global: 'gban', local: 'lban' };

export function isBanKind(kind: RecordKind): kind is BanRecordKind {
  return kind === 'gban' || kind === 'lban';
}

/** The punishments feature's name of a record kind (`chatban` → `chatjail`). */
export function punishmentKindOf(kind: PunishmentRecordKind): PunishmentKind {
  return PUNISHMENT_KIND[kind];
}

/** The record kind of a punishment (`chatjail` → `chatban`). */
export function recordKindOfPunishment(kind: PunishmentKind): PunishmentRecordKind {
  return RECORD_KIND_OF_PUNISHMENT[kind];
}

/** The ban list's type of a record kind (`gban` → `global`). */
export function banTypeOf(kind: BanRecordKind): BanType {
  return BAN_TYPE[kind];
}

export function recordKindOfBan(type: BanType): BanRecordKind {
  return RECORD_KIND_OF_BAN[type];
}

/** Both ids are positive integers today: anything else names no record. */
export function numericIdOf(id: string): number | null {
  return /^[1-9][0-9]{0,15}$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : null;
}
