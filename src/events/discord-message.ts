/**
 * The Japanese Discord message of an event (`format: "discord"`, docs/events-and-webhooks.md, Discord): a short line in
 * `content` and an embed naming the city, the requester, the type, the decision, who decided and
 * the reason. Pure: the caller passes what it knows of the players involved.
 */

export interface PlayerName {
  mcid: string | null;
  chatid: string | null;
}

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface DiscordBody {
  content: string;
  embeds: Array<{ title: string; description?: string; color: number; fields: DiscordEmbedField[]; timestamp: string; footer: { text: string } }>;
  /** Only the requester may be pinged; names typed by players never mention anyone. */
  allowed_mentions: { parse: never[]; users: string[] };
}

interface RequestData {
  id?: number;
  cityId?: number;
  type?: string;
  status?: string;
  requester?: { uuid?: string; mcid?: string | null };
  rejectReason?: string | null;
  decidedBy?: string | null;
  changes?: { cityName?: string };
  city?: { name?: string };
}

interface CityData {
  id?: number;
  name?: string;
  owner?: { uuid?: string; mcid?: string | null; chatid?: string | null };
}

interface PunishmentData {
  id?: number;
  kind?: string;
  uuid?: string;
  mcid?: string | null;
  reason?: string;
  issuedBy?: string;
}

const PUNISHMENT_JA: Record<string, string> = { jail: 'Jail（投獄）', chatjail: 'ChatJail（発言禁止）', eban: 'EBan（区域 BAN）', vban: 'VBan（BAN）' };

const TYPE_JA: Record<string, string> = { create: '新規登録', region: '区域変更', update: '情報変更' };
const COLORS = { created: 0x3498db, approved: 0x2ecc71, rejected: 0xe74c3c, changed: 0xf1c40f, deleted: 0x95a5a6, info: 0x7f8c8d };
const WITHDRAWN = 'withdrawn';

/** Event data is JSON the service wrote itself; fields are still read defensively (all optional). */
function objectOf<T>(value: unknown): T | null {
  return typeof value === 'object' && value !== null ? (value as T) : null;
}

/** Discord's limits: content 2,000, title 256, field value 1,024 characters. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Text a player or operator typed (city names, game ids, reasons, API key names), shown literally
 * in every field (SECURITY.md, Discord messages): each Markdown character gets a backslash, so a
 * masked link `[x](https://…)`, a heading `# …`, a mention `<@id>`, `<@&role>` or `<#channel>`,
 * `**bold**`, spoilers and code show as typed; `://` loses its autolink and `@everyone`/`@here`
 * get a zero-width space (allowed_mentions already stops the ping; this stops the highlight).
 * What the service builds itself (the requester's `<@id>`) is never passed through here.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\[\]()<>#*_~|`]/g, (char) => `\\${char}`)
    .replace(/^(\s*)([-+]|\d+\.)(?=\s)/gm, (_all, space: string, marker: string) => `${space}\\${marker}`)
    .replace(/:\/\//g, '\\://')
    .replace(/@(everyone|here)/gi, '@\u200b$1');
}

function quoted(text: string): string {
  return `「${escapeMarkdown(text)}」`;
}

function playerLabel(uuid: string | undefined, names: ReadonlyMap<string, PlayerName>, fallbackMcid?: string | null): string {
  if (!uuid) {
    return '不明';
  }
  const known = names.get(uuid);
  const typed = known?.mcid ?? fallbackMcid ?? null;
  const mcid = typed === null ? null : escapeMarkdown(typed);
  // The chat id comes from the link table: digits only, checked when it was linked.
  if (known?.chatid && /^\d+$/.test(known.chatid)) {
    return `<@${known.chatid}>${mcid ? ` (${mcid})` : ''}`;
  }
  return mcid ?? escapeMarkdown(uuid);
}

/** `apikey:<name>` → 運営 (name); `club:<uuid>` → the club admin, mentioned when linked. */
export function deciderLabel(decidedBy: string | null | undefined, names: ReadonlyMap<string, PlayerName>): string | null {
  if (!decidedBy) {
    return null;
  }
  if (decidedBy.startsWith('apikey:')) {
    return `運営 (${escapeMarkdown(decidedBy.slice('apikey:'.length))})`;
  }
  if (decidedBy.startsWith('club:')) {
    return `クラブ管理者 ${playerLabel(decidedBy.slice('club:'.length), names)}`;
  }
  if (decidedBy.startsWith('player:')) {
    return playerLabel(decidedBy.slice('player:'.length), names);
  }
  return escapeMarkdown(decidedBy);
}

/** The players a message may name, to look up before building it. */
export function playersOf(data: Record<string, unknown>): string[] {
  const request = objectOf<RequestData>(data.request);
  const city = objectOf<CityData>(data.city);
  const uuids = [request?.requester?.uuid, city?.owner?.uuid, objectOf<PunishmentData>(data.punishment)?.uuid];
  const decidedBy = request?.decidedBy ?? '';
  for (const prefix of ['club:', 'player:']) {
    if (decidedBy.startsWith(prefix)) {
      uuids.push(decidedBy.slice(prefix.length));
    }
  }
  return [...new Set(uuids.filter((uuid): uuid is string => typeof uuid === 'string'))];
}

export function discordMessage(
  event: { id: number | null; type: string; at: string; data: Record<string, unknown> },
  names: ReadonlyMap<string, PlayerName>,
): DiscordBody {
  const request = objectOf<RequestData>(event.data.request);
  const city = objectOf<CityData>(event.data.city);
  const punishment = objectOf<PunishmentData>(event.data.punishment);
  const cityName = city?.name ?? request?.city?.name ?? request?.changes?.cityName ?? (request ? `自治体 #${request.id ?? '?'}` : '不明な自治体');
  const requesterUuid = request?.requester?.uuid;
  const requester = requesterUuid ? playerLabel(requesterUuid, names, request?.requester?.mcid) : null;
  const linked = requesterUuid ? names.get(requesterUuid)?.chatid ?? null : null;
  const requesterChatId = linked !== null && /^\d+$/.test(linked) ? linked : null;
  const typeJa = request?.type ? TYPE_JA[request.type] ?? request.type : null;
  const decider = deciderLabel(request?.decidedBy, names);
  const mention = requesterChatId ? `<@${requesterChatId}> ` : '';

  let content: string;
  let title: string;
  let color: number;
  let decision: string | null = null;
  let reason: string | null = null;
  switch (event.type) {
    case 'city.request.created':
      title = `自治体の申請（${typeJa ?? '申請'}）を受け付けました`;
      content = `${quoted(cityName)}の${typeJa ?? ''}申請が届きました。審査をお願いします。`;
      color = COLORS.created;
      decision = request?.status === 'approved' ? '承認済み（運営による即時登録）' : '審査待ち';
      break;
    case 'city.request.approved':
      title = `自治体の申請（${typeJa ?? '申請'}）が承認されました`;
      content = `${mention}${quoted(cityName)}の${typeJa ?? ''}申請が承認されました。`;
      color = COLORS.approved;
      decision = '承認';
      break;
    case 'city.request.rejected': {
      const withdrawn = request?.rejectReason === WITHDRAWN;
      title = withdrawn ? `自治体の申請（${typeJa ?? '申請'}）が取り下げられました` : `自治体の申請（${typeJa ?? '申請'}）が却下されました`;
      content = withdrawn ? `${quoted(cityName)}の${typeJa ?? ''}申請が申請者により取り下げられました。` : `${mention}${quoted(cityName)}の${typeJa ?? ''}申請は却下されました。`;
      color = COLORS.rejected;
      decision = withdrawn ? '取り下げ' : '却下';
      reason = withdrawn ? null : request?.rejectReason ?? null;
      break;
    }
    case 'city.changed':
      title = '自治体の情報が管理者により変更されました';
      content = `${quoted(cityName)}の情報がクラブ管理者により直接変更されました。`;
      color = COLORS.changed;
      break;
    case 'city.deleted':
      title = '自治体が削除されました';
      content = `${quoted(cityName)}が削除されました。`;
      color = COLORS.deleted;
      break;
    case 'banlist.sync.finished': {
      const summary = (event.data.summary ?? {}) as { players?: number; updated?: number; failed?: number; removedBans?: number };
      title = 'BANリストの同期が完了しました';
      content = `BANリストの同期が完了しました（対象 ${summary.players ?? 0} 人、更新 ${summary.updated ?? 0} 人、失敗 ${summary.failed ?? 0} 人、解除された BAN ${summary.removedBans ?? 0} 件）。`;
      color = COLORS.info;
      break;
    }
    case 'punishment.issued':
    case 'punishment.lifted': {
      const issued = event.type === 'punishment.issued';
      const kind = punishment?.kind ? PUNISHMENT_JA[punishment.kind] ?? escapeMarkdown(punishment.kind) : '処罰';
      // The line names the player by game id only: a punishment never mentions anyone.
      const player = escapeMarkdown(punishment?.mcid ?? names.get(punishment?.uuid ?? '')?.mcid ?? punishment?.uuid ?? '不明');
      title = issued ? `処罰（${kind}）が記録されました` : `処罰（${kind}）が解除されました`;
      content = issued ? `${player} に ${kind} が科されました。` : `${player} の ${kind} が解除されました。`;
      color = issued ? COLORS.rejected : COLORS.approved;
      break;
    }
    default:
      title = 'テスト通知';
      content = 'Webhook のテスト通知です。この通知が届いていれば設定は正しく動作しています。';
      color = COLORS.info;
  }

  const fields: DiscordEmbedField[] = [];
  const add = (name: string, value: string | null | undefined, inline = true): void => {
    if (value) {
      fields.push({ name, value: clip(value, 1024), inline });
    }
  };
  if (event.type.startsWith('city.')) {
    const cityId = city?.id ?? request?.cityId;
    add('自治体', cityId ? `${escapeMarkdown(cityName)} (#${cityId})` : escapeMarkdown(cityName));
    add('申請者', requester ?? (city?.owner?.uuid ? playerLabel(city.owner.uuid, names, city.owner.mcid) : null));
    add('種別', typeJa);
    add('判断', decision);
    // A withdrawal is the requester's own act: no one "decided" it.
    const withdrawn = request?.rejectReason === WITHDRAWN;
    add('判断者', (event.type === 'city.request.created' && request?.status !== 'approved') || withdrawn ? null : decider);
    add('理由', reason === null ? null : escapeMarkdown(reason), false);
  }
  if (event.type.startsWith('punishment.')) {
    add('プレイヤー', punishment?.uuid ? `${escapeMarkdown(punishment.mcid ?? '?')} (${escapeMarkdown(punishment.uuid)})` : null);
    add('種類', punishment?.kind ? PUNISHMENT_JA[punishment.kind] ?? escapeMarkdown(punishment.kind) : null);
    add('処罰 ID', punishment?.id === undefined ? null : `#${punishment.id}`);
    add('実行者', punishment?.issuedBy ? escapeMarkdown(punishment.issuedBy) : null);
    add('理由', punishment?.reason ? escapeMarkdown(punishment.reason) : null, false);
  }
  return {
    content: clip(content, 2000),
    embeds: [{ title: clip(title, 256), color, fields, timestamp: event.at, footer: { text: event.id === null ? 'テスト' : `イベント #${event.id}` } }],
    allowed_mentions: { parse: [], users: requesterChatId ? [requesterChatId] : [] },
  };
}
