import { ref } from 'vue';
import { type Lang, MESSAGES, type MessageKey } from './messages';

const STORAGE_KEY = 'community-console.lang';

function initialLang(): Lang {
  const fromUrl = new URLSearchParams(window.location.search).get('lang');
  if (fromUrl === 'en' || fromUrl === 'ja') {
    localStorage.setItem(STORAGE_KEY, fromUrl);
    return fromUrl;
  }
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === 'en' ? 'en' : 'ja';
}

/** Japanese by default; `?lang=en` switches, and the choice is remembered in this browser. */
export const lang = ref<Lang>(initialLang());
document.documentElement.lang = lang.value;

export function setLang(next: Lang): void {
  lang.value = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  const url = new URL(window.location.href);
  url.searchParams.set('lang', next);
  window.history.replaceState(window.history.state, '', url);
}

/** Whether a key built at run time (an action code of the service) has words. */
export function isMessageKey(key: string): key is MessageKey {
  return key in MESSAGES.en;
}

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return MESSAGES[lang.value][key].replace(/\{(\w+)\}/g, (_whole, name: string) => String(values[name] ?? ''));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago" / "3日前". */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang.value, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      return format.format(Math.round(seconds / size), unit);
    }
  }
  return format.format(0, 'minute');
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) {
    return '—';
  }
  return new Intl.DateTimeFormat(lang.value === 'ja' ? 'ja-JP' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function number(value: number): string {
  return new Intl.NumberFormat(lang.value === 'ja' ? 'ja-JP' : 'en-US').format(value);
}

/** A play time as "123 h 45 min" / "123時間45分" (hours not folded into days: operators compare hours). */
export function duration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return t('hoursMinutes', { hours: number(Math.floor(minutes / 60)), minutes: minutes % 60 });
}
