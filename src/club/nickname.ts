/** Nickname rules (docs/club-site.md), as a pure function. */

import { type LocalizedText, msg } from '../common/errors/messages';

export const NICKNAME_MAX_LENGTH = 32;

// White space (incl. U+3000), C0/C1 controls and zero-width characters, at either end.
const EDGE = /^[\s\p{Cc}\u200B-\u200D\u2060\uFEFF]+|[\s\p{Cc}\u200B-\u200D\u2060\uFEFF]+$/gu;
// Zero-width spaces and BOMs inside are invisible noise; joiners (U+200C/U+200D) build emoji and scripts.
const INNER_INVISIBLE = /[\u200B\u2060\uFEFF]/g;
const CONTROL = /\p{Cc}/u;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export type NicknameResult = { ok: true; nickname: string } | { ok: false; reason: LocalizedText };

export function cleanNickname(raw: string): NicknameResult {
  const trimmed = raw.replace(EDGE, '').replace(INNER_INVISIBLE, '');
  if (CONTROL.test(trimmed)) {
    return { ok: false, reason: msg('club.nickname.control') };
  }
  const length = [...graphemes.segment(trimmed)].length;
  if (length < 1) {
    return { ok: false, reason: msg('club.nickname.empty') };
  }
  // The byte-ish limit guards the column against long emoji sequences that count as one character.
  if (length > NICKNAME_MAX_LENGTH || trimmed.length > 128) {
    return { ok: false, reason: msg('club.nickname.tooLong', { max: NICKNAME_MAX_LENGTH }) };
  }
  return { ok: true, nickname: trimmed };
}
