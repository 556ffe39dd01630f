import type { City, HistoryEntry, HistorySnapshot } from './api';
import { isMessageKey, number, t } from './i18n';
import type { MessageKey } from './messages';

/**
 * A city's audit entry in words, in the language shown: what happened, who did it, and what it
 * changed ("Name: Kita → Minami"), instead of the service's codes (`create_requested`,
 * `player:069a79f4-…`, `state: pending`). See docs/console (the history of a city).
 */
export interface HistoryLine {
  what: string;
  who: string;
  request: string;
  details: string[];
}

type Snapshot = NonNullable<HistorySnapshot>;
type CitySnapshot = NonNullable<Snapshot['city']>;
type Changes = NonNullable<NonNullable<Snapshot['request']>['changes']>;

/** The fields a history line mentions, in this order, with their labels; the same names in a city and a request, but for the names. */
const COMMON_FIELDS = ['summary', 'origin', 'regionName', 'count', 'corners', 'reason', 'remarks'] as const satisfies ReadonlyArray<keyof CitySnapshot & keyof Changes & MessageKey>;
const CITY_FIELDS: ReadonlyArray<readonly [keyof CitySnapshot, MessageKey]> = [['name', 'name'], ['nameKana', 'reading'], ...COMMON_FIELDS.map((key) => [key, key] as const)];
const REQUEST_FIELDS: ReadonlyArray<readonly [keyof Changes, MessageKey]> = [['cityName', 'name'], ['cityNameKana', 'reading'], ...COMMON_FIELDS.map((key) => [key, key] as const)];

function show(value: unknown): string {
  if (value === undefined || value === null || value === '') {
    return '—';
  }
  if (Array.isArray(value)) {
    return t('cornersCount', { count: value.length });
  }
  if (typeof value === 'number') {
    return number(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "Name: A → B" for every field the entry changed (an outline of the same corner count: "Corners: changed"). */
function cityChanges(before: CitySnapshot, after: CitySnapshot): string[] {
  return CITY_FIELDS.filter(([key]) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)).map(([key, label]) => {
    const from = show(before[key]);
    const to = show(after[key]);
    return `${t(label)}: ${from === to ? t('changedValue') : `${from} → ${to}`}`;
  });
}

/** "Name: A" for every field a request asks for. */
function requested(changes: Changes): string[] {
  return REQUEST_FIELDS.filter(([key]) => changes[key] !== undefined).map(([key, label]) => `${t(label)}: ${show(changes[key])}`);
}

function who(actor: string, city: City | null): string {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'apikey' && id) {
    return t('byOperatorKey', { name: id });
  }
  if ((kind === 'player' || kind === 'club') && id) {
    if (city && city.owner.uuid === id) {
      return t('byAdministrator', { name: city.owner.mcid ?? id.slice(0, 8) });
    }
    return t(kind === 'club' ? 'byClubAccount' : 'byPlayer', { name: id.slice(0, 8) });
  }
  return t('byUnknown');
}

export function describeHistory(entry: HistoryEntry, city: City | null): HistoryLine {
  const action: string = entry.action;
  // Every action the document lists has its words (a missing one fails the type check); an action
  // of a newer service is shown as it is.
  const known: `history_${HistoryEntry['action']}` = `history_${entry.action}`;
  const what = isMessageKey(known) ? t(known) : t('history_other', { action });
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const details: string[] = [];
  if (before.city && after.city && !action.endsWith('_rejected') && !action.endsWith('_withdrawn')) {
    details.push(...cityChanges(before.city, after.city));
  } else if (after.request?.changes && (action.endsWith('_requested') || action.endsWith('_forced'))) {
    details.push(...requested(after.request.changes));
  }
  const reason = after.request?.rejectReason;
  if (action.endsWith('_rejected') && reason) {
    details.push(`${t('reasonGiven')}: ${reason}`);
  }
  return { what, who: who(entry.actor, city), request: entry.requestId ? t('requestRef', { id: entry.requestId }) : '', details };
}
