import { ref } from 'vue';

/**
 * What the user signed in with (docs/console-and-maps.md, Signing in to the console).
 *
 * The console holds no key or token: signing in exchanges them for a server-side session whose
 * cookie is HttpOnly (the page cannot read it); the page keeps only what the server says about
 * the session, in memory, and asks again after a reload. The account page keeps the club token in
 * this tab's sessionStorage, as the club site does.
 */
export type Credential =
  | { kind: 'console'; role: 'operator' | 'club-admin'; name: string; uuid: string | null; csrfToken: string; expiresAt: string }
  /** A key being exchanged at sign-in; never stored. */
  | { kind: 'apikey'; key: string }
  /** `mcid`: the game id to show, or the uuid for an account whose game id is not known. */
  | { kind: 'club'; token: string; uuid: string; mcid: string; clubgroup: string; expiresAt: string };

/** The console and the account page keep separate sign-ins (an operator key is no player account). */
export type Area = 'console' | 'account';

const ACCOUNT_STORAGE_KEY = 'community-account.credential';

function loadAccount(): Credential | null {
  try {
    const text = sessionStorage.getItem(ACCOUNT_STORAGE_KEY);
    const value = text ? (JSON.parse(text) as Credential) : null;
    return value?.kind === 'club' ? value : null;
  } catch {
    return null;
  }
}

export const area: Area = window.location.pathname.replace(/\/+$/, '').endsWith('/account') ? 'account' : 'console';

// Earlier versions kept the console's key here: drop whatever is left of it.
try {
  sessionStorage.removeItem('community-console.credential');
} catch {
  // storage unavailable: nothing to drop
}

export const credential = ref<Credential | null>(area === 'account' ? loadAccount() : null);
/** Why the user was sent back to sign-in (a 401), shown there once. */
export const signOutReason = ref<'expired' | null>(null);

export function signInWith(value: Credential): void {
  if (area === 'account' && value.kind === 'club') {
    sessionStorage.setItem(ACCOUNT_STORAGE_KEY, JSON.stringify(value));
  }
  credential.value = value;
  signOutReason.value = null;
}

export function clearCredential(reason: 'expired' | null = null): void {
  if (area === 'account') {
    sessionStorage.removeItem(ACCOUNT_STORAGE_KEY);
  }
  credential.value = null;
  signOutReason.value = reason;
}

/** Headers that carry the credential: the key or token itself, or a console session's CSRF token (its cookie travels on its own). */
export function authHeaders(value: Credential | null = credential.value, method = 'GET'): Record<string, string> {
  if (!value) {
    return {};
  }
  switch (value.kind) {
    case 'apikey':
      return { 'X-API-Key': value.key };
    case 'club':
      return { Authorization: `Bearer ${value.token}` };
    case 'console':
      return method === 'GET' || method === 'HEAD' ? {} : { 'X-CSRF-Token': value.csrfToken };
  }
}
