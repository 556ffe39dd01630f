import type { CurrentLoginText, LoginTextChange } from './login-texts.repository';
import { byText } from './sender-ids';

/** Which login text a player has after new reports or an import. Pure. */

/** A login text as stored: trimmed, and none for an empty one. */
export function normaliseLoginText(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * The texts to write after newly stored reports: per player the latest report (the first one at
 * equal times), when it is later than the stored one (an imported text has no time: any report
 * wins over it). In player order.
 */
export function textsAfterReports(current: ReadonlyMap<string, CurrentLoginText>, changes: readonly LoginTextChange[]): CurrentLoginText[] {
  const latest = new Map<string, LoginTextChange>();
  for (const change of changes) {
    const seen = latest.get(change.uuid);
    if (!seen || change.at > seen.at) {
      latest.set(change.uuid, change);
    }
  }
  const result: CurrentLoginText[] = [];
  for (const change of latest.values()) {
    const stored = current.get(change.uuid);
    if (stored && stored.reportedAt !== null && stored.reportedAt >= change.at) {
      continue;
    }
    result.push({ uuid: change.uuid, text: normaliseLoginText(change.text), origin: 'game-server', reportedAt: change.at });
  }
  return result.sort((a, b) => byText(a.uuid, b.uuid));
}

/**
 * The texts to write from imported rows: an imported text replaces none or an imported one (a
 * rerun of the import), never one the game server reported. The last row of a player wins;
 * unchanged texts are left out. In player order.
 */
export function textsAfterImport(current: ReadonlyMap<string, CurrentLoginText>, rows: ReadonlyArray<{ uuid: string; text: string | null }>): CurrentLoginText[] {
  const last = new Map<string, string | null>();
  for (const row of rows) {
    last.set(row.uuid, normaliseLoginText(row.text));
  }
  const result: CurrentLoginText[] = [];
  for (const [uuid, text] of last) {
    const stored = current.get(uuid);
    if (stored && (stored.origin !== 'original' || stored.text === text)) {
      continue;
    }
    result.push({ uuid, text, origin: 'original', reportedAt: null });
  }
  return result.sort((a, b) => byText(a.uuid, b.uuid));
}
