/**
 * How every feature names a record of the bans site and the moderation API (docs/bans-site.md,
 * "Kinds"): its kind and its id as text (ban-list ban ids and punishment ids are both integers
 * today, but the API does not promise it). Pure.
 */

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

export function isRecordKind(value: string): value is RecordKind {
  return (RECORD_KINDS as readonly string[]).includes(value);
}
