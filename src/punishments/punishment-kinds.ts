/** The four kinds of punishment and how the sites and the original database name them. Pure. */

/** As routes and the database name them. */
export const PUNISHMENT_KINDS = ['jail', 'chatjail', 'eban', 'vban'] as const;
export type PunishmentKind = (typeof PUNISHMENT_KINDS)[number];

/** As the players site shows them (`type`): the mute is ChatJail there (ChatBan on the bans site). */
export type PunishmentLabel = 'Jail' | 'ChatJail' | 'EBan' | 'VBan';

const LABELS: Record<PunishmentKind, PunishmentLabel> = { jail: 'Jail', chatjail: 'ChatJail', eban: 'EBan', vban: 'VBan' };

export function labelOf(kind: PunishmentKind): PunishmentLabel {
  return LABELS[kind];
}

export function isPunishmentKind(value: string): value is PunishmentKind {
  return (PUNISHMENT_KINDS as readonly string[]).includes(value);
}

/** The original database's punishment tables; both mute tables are one kind. Vanilla bans have no table. */
export const SOURCE_TABLES = ['jail', 'eban', 'chatban', 'chatjail'] as const;
export type PunishmentSourceTable = (typeof SOURCE_TABLES)[number];

const KIND_OF_TABLE: Record<PunishmentSourceTable, PunishmentKind> = { jail: 'jail', eban: 'eban', chatban: 'chatjail', chatjail: 'chatjail' };

export function kindOfTable(table: PunishmentSourceTable): PunishmentKind {
  return KIND_OF_TABLE[table];
}

/** The stored source id of an imported row: the table and its id, so the two mute tables' ids never collide. */
export function importedSourceId(table: PunishmentSourceTable, sourceId: string): string {
  return `${table}:${sourceId}`;
}

/** Counts per kind (every state) of a player's punishments: all four present, 0 when none. */
export function countByKind(kinds: readonly PunishmentKind[]): Record<PunishmentKind, number> {
  const counts: Record<PunishmentKind, number> = { jail: 0, chatjail: 0, eban: 0, vban: 0 };
  for (const kind of kinds) {
    counts[kind] += 1;
  }
  return counts;
}
