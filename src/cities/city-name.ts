/** City names and their kana readings: validation and comparison keys. Pure functions, no framework imports. */

import { type LocalizedText, msg } from '../common/errors/messages';

export const NAME_MAX_LENGTH = 64;
/** Key columns are varchar(255); NFKC can expand a few characters (e.g. "㍻" → "平成"), so keys get room to grow. */
export const NAME_KEY_MAX_LENGTH = 255;

export type NameResult = { ok: true; value: string; key: string } | { ok: false; reason: LocalizedText };

const CONTROL = /[\p{Cc}\p{Cf}]/u;
// Hiragana (with iteration marks and combining sound marks), katakana, ー, ・ and spaces.
const KANA = /^(?:[\u3041-\u3096\u309D-\u309F\u30A1-\u30FF ]|\u3099|\u309A)+$/;

/**
 * The comparison key: NFKC, case-folded, white space collapsed. `toUpperCase().toLowerCase()`
 * folds the characters whose lower case is not their fold (e.g. "ß" and "SS" compare equal); the
 * second NFKC keeps the key normalised after folding. One fold is not always enough: capital
 * sharp s ("ẞ") folds to "ß", which folds to "ss" (the only such code point), so the fold runs
 * until nothing changes, and a key is its own key.
 */
export function nameKey(value: string): string {
  let folded = foldOnce(value);
  for (let next = foldOnce(folded); next !== folded; next = foldOnce(folded)) {
    folded = next;
  }
  return folded.trim().replace(/\s+/gu, ' ');
}

function foldOnce(value: string): string {
  return value.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

function common(field: string, raw: string): { ok: false; reason: LocalizedText } | { ok: true; value: string } {
  const value = raw.trim();
  if (value.length < 1 || value.length > NAME_MAX_LENGTH) {
    return { ok: false, reason: msg('cities.name.length', { field, max: NAME_MAX_LENGTH }) };
  }
  if (CONTROL.test(value)) {
    return { ok: false, reason: msg('cities.name.control', { field }) };
  }
  return { ok: true, value };
}

/** A city name: 1–64 characters after trimming, no control characters. Stored trimmed. */
export function checkCityName(raw: string): NameResult {
  const checked = common('cityName', raw);
  if (!checked.ok) {
    return checked;
  }
  const key = nameKey(checked.value);
  if (key.length < 1 || key.length > NAME_KEY_MAX_LENGTH) {
    return { ok: false, reason: msg('cities.name.tooLongNormalised', { field: 'cityName' }) };
  }
  return { ok: true, value: checked.value, key };
}

/** A kana reading: hiragana, katakana, ー, ・ and spaces only (half-width katakana accepted via NFKC). */
export function checkCityNameKana(raw: string): NameResult {
  const checked = common('cityNameKana', raw);
  if (!checked.ok) {
    return checked;
  }
  const normalised = checked.value.normalize('NFKC');
  if (!KANA.test(normalised)) {
    return { ok: false, reason: msg('cities.kana.characters') };
  }
  const key = nameKey(checked.value);
  if (key.length < 1 || key.length > NAME_KEY_MAX_LENGTH) {
    return { ok: false, reason: msg('cities.name.tooLongNormalised', { field: 'cityNameKana' }) };
  }
  return { ok: true, value: checked.value, key };
}
