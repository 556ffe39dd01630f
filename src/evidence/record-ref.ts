/**
 * How every feature names a record of the bans site and the moderation API (docs/bans-site.md,
 * "Kinds"): its kind and its id as text (ban-list ban ids and punishment ids are both integers
 * today, but the API does not promise it), and the one mapping between the record kinds and the
 * names the features that keep the records use (the punishments' `chatjail` is the `chatban`
 * here). Pure.
 */
import type { PunishmentKind } from '../punishments/punishment-kinds';

/**
 * `gban`/`lban`: the community's own ban-list records; `vban`, `eban`, `chatban` (the mute the
 * punishments feature calls `chatjail`): punishments; `jail`: a punishment that is not a ban (never
 * on the bans site).
 */
export type RecordKind = 'gban' | 'lban' | 'vban' | 'eban' | 'chatban' | 'jail';

export const RECORD_KINDS: readonly RecordKind[] = ['gban', 'lban', 'vban', 'eban', 'chatban', 'jail'];

export interface RecordRef {
  kind: RecordKind;
  id: string;
}

/** The ids of `records` by kind, in order: lists read their notes and pictures one query per kind, not per record. */
export function idsByKind(records: readonly RecordRef[]): Map<RecordKind, string[]> {
  const ids = new Map<RecordKind, string[]>();
  for (const record of records) {
    const list = ids.get(record.kind);
    if (list) {
      list.push(record.id);
    } else {
      ids.set(record.kind, [record.id]);
    }
  }
  return ids;
}

export type PunishmentRecordKind = 'jail' | 'chatban' | 'eban' | 'vban';
export type BanRecordKind = 'gban' | 'lban';
export type BanType = 'global' | 'local';

const PUNISHMENT_KIND: Record<PunishmentRecordKind, PunishmentKind> = { jail: 'jail', chatban: 'chatjail', eban: 'eban', vban: 'vban' };
const RECORD_KIND_OF_PUNISHMENT: Record<PunishmentKind, PunishmentRecordKind> = { jail: 'jail', chatjail: 'chatban', eban: 'eban', vban: 'vban' };
const BAN_TYPE: Record<BanRecordKind, BanType> = { gban: 'global', lban: 'local' };
const RECORD_KIND_OF_BAN: Record<BanType, BanRecordKind> = { global: 'gban', local: 'lban' };

/** `gban`/`lban`: kept by src/community-bans/; every other kind by src/punishments/. */
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

/** The record kind of a ban-list type (`global` → `gban`). */
export function recordKindOfBan(type: BanType): BanRecordKind {
  return RECORD_KIND_OF_BAN[type];
}
