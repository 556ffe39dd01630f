import { api, unwrap } from './api';
import { t } from './i18n';

/**
 * The moderation routes the Players and Bans tabs call (docs/console-and-maps.md, Moderation).
 * PROVISIONAL: the shapes below restate the shared contract until the moderation branch's OpenAPI
 * document reaches console/src/api-types.ts; then they become the generated types.
 */
export type RecordKind = 'gban' | 'lban' | 'vban' | 'eban' | 'chatban' | 'jail';
export const RECORD_KINDS: readonly RecordKind[] = ['gban', 'lban', 'vban', 'eban', 'chatban', 'jail'];
/** gban and lban are lifted on the ban-list service, never here. */
export const LIFTABLE_KINDS: readonly RecordKind[] = ['vban', 'eban', 'chatban', 'jail'];

export interface RecordRef {
  kind: RecordKind;
  id: string;
}

export interface RecordSummary {
  kind: RecordKind;
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

export interface ModerationRecord extends RecordSummary {
  liftedBy: string | null;
  liftReason: string | null;
  updatedAt: string;
}

export interface Evidence {
  name: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
  addedBy: string;
  addedAt: string;
  url: string;
}

export type RecordAction = 'lifted' | 'note' | 'evidence-added' | 'evidence-removed';

export interface RecordHistoryEntry {
  at: string;
  actor: string;
  action: RecordAction;
  detail: string | null;
}

export interface RecordDetail {
  record: ModerationRecord;
  note: string | null;
  evidence: Evidence[];
  history: RecordHistoryEntry[];
}

export interface PlayerHit {
  uuid: string;
  mcid: string | null;
  chatid: string | null;
  lastLogin: string | null;
}

export interface ChatAccount {
  /** The chat id. */
  id: string;
  /** The chat id itself while no name was ever reported. */
  name: string;
  /** `"0"` when the account has none. */
  discriminator: string;
}

export interface PlayerPage {
  player: { uuid: string; mcid: string | null; chatid: string | null; group: string | null; firstLogin: string | null; lastLogin: string | null };
  logins: Array<{ mcid: string | null; loggedInAt: string }>;
  playTime: { eras: Array<{ era: string; seconds: number }>; totalSeconds: number; awaySeconds: number };
  chatAccounts: { main: ChatAccount | null; sub: ChatAccount | null };
  banlist: Array<{ banId: number; kind: 'gban' | 'lban'; reason: string; server: string | null; bannedAt: string; active: boolean }>;
  records: RecordSummary[];
  cities: Array<{ id: number; name: string; status: 'pending' | 'active' | 'rejected' | 'deleted' }>;
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

type Answer = Promise<{ data?: unknown; error?: unknown; response: Response }>;
interface Init {
  params?: { path?: Record<string, string>; query?: Record<string, string> };
  body?: unknown;
  headers?: Record<string, string>;
  bodySerializer?: (body: unknown) => unknown;
}
/** PROVISIONAL: the client without path types until the generated ones name the moderation routes. */
const loose = api as unknown as { GET(path: string, init?: Init): Answer; POST(path: string, init?: Init): Answer; PUT(path: string, init?: Init): Answer; DELETE(path: string, init?: Init): Answer };

async function data<T>(pending: Answer): Promise<T> {
  return ((await unwrap(pending)) as { data: T }).data;
}

const recordPath = (record: RecordRef) => ({ kind: record.kind, id: record.id });

export function searchPlayers(q: string): Promise<{ items: PlayerHit[] }> {
  return data(loose.GET('/moderation/players', { params: { query: { q } } }));
}

export function playerPage(uuid: string): Promise<PlayerPage> {
  return data(loose.GET('/moderation/players/{uuid}', { params: { path: { uuid } } }));
}

/** A page of records, newest first; `cursor` the previous page's `nextCursor`. */
export function listRecords(filter: RecordFilter, cursor: string | null, limit = 30): Promise<{ items: RecordSummary[]; nextCursor: string | null }> {
  const query: Record<string, string> = { state: filter.state, limit: String(limit) };
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
  return data(loose.GET('/moderation/records', { params: { query } }));
}

export function recordDetail(record: RecordRef): Promise<RecordDetail> {
  return data(loose.GET('/moderation/records/{kind}/{id}', { params: { path: recordPath(record) } }));
}

export function liftRecord(record: RecordRef, reason: string): Promise<ModerationRecord> {
  return data(loose.POST('/moderation/records/{kind}/{id}/lift', { params: { path: recordPath(record) }, body: reason ? { reason } : {} }));
}

export function saveNote(record: RecordRef, note: string): Promise<{ note: string | null }> {
  return data(loose.PUT('/moderation/records/{kind}/{id}/note', { params: { path: recordPath(record) }, body: { note } }));
}

/** The picture's bytes as the body, its type as the Content-Type; the server reads the real type from the content. */
export function attachEvidence(record: RecordRef, file: File): Promise<Evidence> {
  return data(
    loose.POST('/moderation/records/{kind}/{id}/evidence', {
      params: { path: recordPath(record) },
      body: file,
      bodySerializer: (body) => body,
      headers: { 'Content-Type': file.type || 'application/octet-stream' },
    }),
  );
}

export function removeEvidence(record: RecordRef, name: string): Promise<{ removed: boolean }> {
  return data(loose.DELETE('/moderation/records/{kind}/{id}/evidence/{name}', { params: { path: { ...recordPath(record), name } } }));
}

export function sameRecord(a: RecordRef | null, b: RecordRef | null): boolean {
  return a !== null && b !== null && a.kind === b.kind && a.id === b.id;
}

/** The names operators know the kinds by (badges; the long names are in messages.ts). */
export const KIND_CODES: Record<RecordKind, string> = { gban: 'GBAN', lban: 'LBAN', vban: 'VBAN', eban: 'EBAN', chatban: 'ChatBan', jail: 'Jail' };

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * Who did something to a record, in words: the service writes `apikey:<key name>` for an operator
 * key and `club:<game id>` (`club:<uuid>` without one) for a club admin; anything else (the game
 * server's own lift, an older entry) is shown as written.
 */
export function actorWords(actor: string): string {
  const [kind, ...rest] = actor.split(':');
  const name = rest.join(':');
  if (kind === 'apikey' && name) {
    return t('byOperatorKey', { name });
  }
  if (kind === 'club' && name) {
    return t('byClubAdmin', { name: UUID.test(name) ? `${name.slice(0, 8)}…` : name });
  }
  return actor;
}
