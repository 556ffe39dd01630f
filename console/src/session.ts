import { ref } from 'vue';

/** What the user signed in with. Kept in this tab's sessionStorage only (contract 13.9), never localStorage or cookies. */
export type Credential =
  | { kind: 'apikey'; key: string }
  /** `mcid`: the game id to show, or the uuid for an account whose game id is not known. */
  | { kind: 'club'; token: string; uuid: string; mcid: string; clubgroup: string; expiresAt: string };

/** The console and the account page keep separate sign-ins (an operator key is no player account). */
export type Area = 'console' | 'account';

function storageKey(area: Area): string {
  return `community-${area}.credential`;
}

function load(area: Area): Credential | null {
  try {
    const text = sessionStorage.getItem(storageKey(area));
    return text ? (JSON.parse(text) as Credential) : null;
  } catch {
    return null;
  }
}

export const area: Area = window.location.pathname.replace(/\/+$/, '').endsWith('/account') ? 'account' : 'console';

export const credential = ref<Credential | null>(load(area));
/** Why the user was sent back to sign-in (a 401), shown there once. */
export const signOutReason = ref<'expired' | null>(null);

export function signInWith(value: Credential): void {
  sessionStorage.setItem(storageKey(area), JSON.stringify(value));
  credential.value = value;
  signOutReason.value = null;
}

export function clearCredential(reason: 'expired' | null = null): void {
  sessionStorage.removeItem(storageKey(area));
  credential.value = null;
  signOutReason.value = reason;
}

export function authHeaders(value: Credential | null = credential.value): Record<string, string> {
  if (!value) {
    return {};
  }
  return value.kind === 'apikey' ? { 'X-API-Key': value.key } : { Authorization: `Bearer ${value.token}` };
}
