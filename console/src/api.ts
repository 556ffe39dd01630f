import type { components } from './api-types';
import { lang } from './i18n';
import { area, authHeaders, clearCredential, type Credential } from './session';

/**
 * The service's shapes, generated from its OpenAPI document (scripts/console-api-types.js writes
 * api-types.ts; a test fails when it is stale), so the console never restates them by hand.
 */
type Schemas = components['schemas'];
export type Corner = Schemas['CornerOutDoc'];
export type City = Schemas['CityDoc'];
export type CityRequest = Schemas['CityRequestDoc'];
export type RequestType = CityRequest['type'];
export type Conflict = Schemas['ConflictDoc'];
export type HistoryEntry = Schemas['HistoryEntryDoc'];
export type HistorySnapshot = Schemas['HistorySnapshotDoc'];
export type Account = Schemas['ClubAccountDoc'];
export type SyncSummary = Schemas['SyncSummaryDoc'];
export type SyncStatus = Schemas['SyncStatusDoc'];
export type ConsoleSession = Schemas['ConsoleSessionDoc'];

/** An error answer of the API (its envelope), or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly messageJa: string | undefined,
  ) {
    super(message);
  }

  /** What to show: Japanese from `message_ja` in Japanese mode, else `message`. */
  get text(): string {
    return lang.value === 'ja' && this.messageJa ? this.messageJa : this.message;
  }
}

export function failureText(error: unknown): string {
  return error instanceof ApiFailure ? error.text : String(error);
}

interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: Record<string, unknown>;
  /** Use this credential instead of the signed-in one (checking a new sign-in). */
  credential?: Credential | null;
  /** A 401 signs out (the default for calls with the stored credential). */
  signOutOn401?: boolean;
}

/** Calls the public API with the user's credential in a header; throws ApiFailure on any error answer. */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) {
      url.searchParams.set(name, String(value));
    }
  }
  const useStored = options.credential === undefined;
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(useStored ? undefined : options.credential, method) };
  let body: string | undefined;
  if (options.body) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    // The console's session is its cookie (same origin only); the account page sends no cookie at all.
    response = await fetch(url, { method, headers, body, credentials: area === 'console' ? 'same-origin' : 'omit', cache: 'no-store' });
  } catch (error) {
    throw new ApiFailure(0, 'network', `The service could not be reached (${String(error)}).`, 'サービスに接続できませんでした。');
  }
  const parsed = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok) {
    const failure = new ApiFailure(
      response.status,
      typeof parsed?.error === 'string' ? parsed.error : 'error',
      typeof parsed?.message === 'string' ? parsed.message : `HTTP ${response.status}`,
      typeof parsed?.message_ja === 'string' ? parsed.message_ja : undefined,
    );
    if (response.status === 401 && useStored && options.signOutOn401 !== false) {
      clearCredential('expired');
    }
    throw failure;
  }
  return parsed as T;
}

/** What the page keeps of a console session (the cookie itself stays HttpOnly). */
export function consoleCredential(session: ConsoleSession): Credential {
  return { kind: 'console', role: session.kind, name: session.name, uuid: session.uuid ?? null, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}

/** The console session of this browser, if its cookie is still good (after a reload); null when not signed in. */
export async function currentConsoleSession(): Promise<Credential | null> {
  try {
    const found = (await call<{ data: ConsoleSession | null }>('GET', '/console-session', { credential: null })).data;
    return found ? consoleCredential(found) : null;
  } catch {
    return null;
  }
}

/** The CAPTCHA answer to send: the widget's token, or a placeholder when verification is off on the server. */
export const NO_CAPTCHA = 'not-configured';

let geojson: Promise<Array<{ id: number; name: string; corners: Array<{ x: number; z: number }> }>> | undefined;

/** Registered cities' outlines (from the public GeoJSON map), fetched once until `refreshMap()`. */
export function mapCities(): Promise<Array<{ id: number; name: string; corners: Array<{ x: number; z: number }> }>> {
  geojson ??= fetch('/maps/cities.geojson', { credentials: 'omit' })
    .then((response) => (response.ok ? (response.json() as Promise<{ features: Array<{ id: number; properties: { name: string }; geometry: { coordinates: number[][][] } }> }>) : { features: [] }))
    .then((collection) =>
      collection.features.map((feature) => ({
        id: feature.id,
        name: feature.properties.name,
        // The ring is closed by repeating the first corner; outlines take the corners once.
        corners: feature.geometry.coordinates[0].slice(0, -1).map(([x, z]) => ({ x, z })),
      })),
    )
    .catch(() => []);
  return geojson;
}

export function refreshMap(): void {
  geojson = undefined;
}

let cityList: Promise<City[]> | undefined;

/** `GET /cities` (the whole list), kept in the page for searching until `refreshCities()`. */
export function allCities(): Promise<City[]> {
  cityList ??= call<{ data: City[] }>('GET', '/cities', { credential: null }).then((result) => result.data);
  cityList.catch(() => {
    cityList = undefined;
  });
  return cityList;
}

export function refreshCities(): void {
  cityList = undefined;
  refreshMap();
}
