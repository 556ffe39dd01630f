import { api, unwrap } from './api';
import type { components } from './api-types';
import { t } from './i18n';

type Schemas = components['schemas'];

/**
 * The moderation routes the Players and Bans tabs call (docs/console-and-maps.md, Players and
 * Bans), typed by the service's OpenAPI document like every other call of the console.
 */
export type RecordSummary = Schemas['RecordSummaryDoc'];
export type RecordKind = RecordSummary['kind'];
export type ModerationRecord = Schemas['RecordDetailDoc'];
export type Evidence = Schemas['EvidenceFileDoc'];
export type RecordDetail = Schemas['RecordPageDoc'];
export type RecordHistoryEntry = Schemas['RecordHistoryEntryDoc'];
export type PlayerHit = Schemas['PlayerMatchDoc'];
export type ChatAccount = Schemas['ChatAccountDoc'];
export type PlayerPage = Schemas['ModerationPlayerPageDoc'];

export const RECORD_KINDS: readonly RecordKind[] = ['gban', 'lban', 'vban', 'eban', 'chatban', 'jail'];
/** gban and lban are lifted on the ban-list service, never here (the lift route answers 409). */
export const LIFTABLE_KINDS: readonly RecordKind[] = ['vban', 'eban', 'chatban', 'jail'];

export interface RecordRef {
  kind: RecordKind;
  id: string;
}

export type RecordState = 'active' | 'lifted' | 'all';

export interface RecordFilter {
  kinds: RecordKind[];
  state: RecordState;
  issuer: string;
  /** ISO 8601 instants, or '' for no bound. */
  from: string;
  to: string;
}

const recordPath = (record: RecordRef) => ({ kind: record.kind, id: record.id });

export async function searchPlayers(q: string): Promise<{ items: PlayerHit[] }> {
  return (await unwrap(api.GET('/moderation/players', { params: { query: { q } } }))).data;
}

export async function playerPage(uuid: string): Promise<PlayerPage> {
  return (await unwrap(api.GET('/moderation/players/{uuid}', { params: { path: { uuid } } }))).data;
}

/** A page of records, newest first; `cursor` the previous page's `nextCursor`. */
export async function listRecords(filter: RecordFilter, cursor: string | null, limit = 30): Promise<{ items: RecordSummary[]; nextCursor: string | null }> {
  const query: { kind?: string; state: RecordState; issuer?: string; from?: string; to?: string; cursor?: string; limit: string } = { state: filter.state, limit: String(limit) };
  // None ticked or all ticked: every kind (no parameter).
  if (filter.kinds.length > 0 && filter.kinds.length < RECORD_KINDS.length) {
    query.kind = filter.kinds.join(',');
  }
  if (filter.issuer.trim()) {
    query.issuer = filter.issuer.trim();
  }
  if (filter.from) {
    query.from = filter.from;
  }
  if (filter.to) {
    query.to = filter.to;
  }
  if (cursor) {
    query.cursor = cursor;
  }
  return (await unwrap(api.GET('/moderation/records', { params: { query } }))).data;
}

export async function recordDetail(record: RecordRef): Promise<RecordDetail> {
  return (await unwrap(api.GET('/moderation/records/{kind}/{id}', { params: { path: recordPath(record) } }))).data;
}

export async function liftRecord(record: RecordRef, reason: string): Promise<ModerationRecord> {
  return (await unwrap(api.POST('/moderation/records/{kind}/{id}/lift', { params: { path: recordPath(record) }, body: reason ? { reason } : {} }))).data;
}

export async function saveNote(record: RecordRef, note: string): Promise<{ note: string | null }> {
  return (await unwrap(api.PUT('/moderation/records/{kind}/{id}/note', { params: { path: recordPath(record) }, body: { note } }))).data;
}

/**
 * The picture's bytes as the body, its type as the Content-Type (the service reads the real type
 * from the content). The document types a binary body as a string; the file goes through as it is.
 */
export async function attachEvidence(record: RecordRef, file: File): Promise<Evidence> {
  return (
    await unwrap(
      api.POST('/moderation/records/{kind}/{id}/evidence', {
        params: { path: recordPath(record) },
        body: file as unknown as string,
        bodySerializer: (body) => body,
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
      }),
    )
  ).data;
}

export async function removeEvidence(record: RecordRef, name: string): Promise<{ removed: boolean }> {
  return (await unwrap(api.DELETE('/moderation/records/{kind}/{id}/evidence/{name}', { params: { path: { ...recordPath(record), name } } }))).data;
}

export function sameRecord(a: RecordRef | null, b: RecordRef | null): boolean {
  return a !== null && b !== null && a.kind === b.kind && a.id === b.id;
}

/** The names operators know the kinds by (badges; the long names are in messages.ts). */
export const KIND_CODES: Record<RecordKind, string> = { gban: 'GBAN', lban: 'LBAN', vban: 'VBAN', eban: 'EBAN', chatban: 'ChatBan', jail: 'Jail' };

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * Who did something to a record, in words: the service writes `apikey:<key name>` for an operator
 * key and `club:<game id>` (`club:<uuid>` without one) for a club admin; anything else (an older
 * entry) is shown as written. `by` says "by the operator key …" (a history line), without it
 * "the operator key …" (a field labelled "Lifted by").
 */
export function actorWords(actor: string, by = true): string {
  const [kind, ...rest] = actor.split(':');
  const name = rest.join(':');
  if (kind === 'apikey' && name) {
    return t(by ? 'byOperatorKey' : 'operatorKeyNamed', { name });
  }
  if (kind === 'club' && name) {
    return t(by ? 'byClubAdmin' : 'clubAdminNamed', { name: UUID.test(name) ? `${name.slice(0, 8)}…` : name });
  }
  return actor;
}
