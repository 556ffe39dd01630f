import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api-types';
import { lang } from './i18n';
import { area, authHeaders, clearCredential, type Credential, credential } from './session';

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
export type ProfileLinks = Schemas['ProfileLinksDoc'];
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

/** A client of the service's routes: paths, parameters, bodies and answers all come from the generated `paths`. */
type Api = Client<paths>;

/**
 * A client of the service typed by path and method (openapi-fetch over the generated types): it
 * sends `who()`'s credential with each request and, when `endsSessionOn401`, takes a 401 as the end
 * of the session and brings the sign-in back (docs/console-and-maps.md, Calling the service).
 */
function clientFor(who: () => Credential | null, endsSessionOn401: boolean): Api {
  const client = createClient<paths>({
    baseUrl: window.location.origin,
    headers: { Accept: 'application/json' },
    // The console's session is its cookie (same origin only); the account page sends no cookie at all.
    credentials: area === 'console' ? 'same-origin' : 'omit',
    cache: 'no-store',
  });
  client.use({
    onRequest({ request }) {
      for (const [name, value] of Object.entries(authHeaders(who(), request.method))) {
        request.headers.set(name, value);
      }
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401 && endsSessionOn401) {
        clearCredential('expired');
      }
    },
    onError({ error }) {
      return new ApiFailure(0, 'network', `The service could not be reached (${String(error)}).`, 'サービスに接続できませんでした。');
    },
  });
  return client;
}

/** The signed-in user's calls: a 401 means the session ended, and the page goes back to sign-in. */
export const api = clientFor(() => credential.value, true);
/** The signed-in user's calls whose 401 the page explains itself (a wrong password, an operator-only route) instead of signing out. */
export const apiKeepingSession = clientFor(() => credential.value, false);
/** Calls that need no credential (the public city list; the console's own cookie still travels). */
export const publicApi = clientFor(() => null, false);

/** Calls with a credential being checked at sign-in; it is never stored. */
export function apiAs(candidate: Credential): Api {
  return clientFor(() => candidate, false);
}

function field(envelope: unknown, name: string): string | undefined {
  const value = typeof envelope === 'object' && envelope !== null ? (envelope as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The body of a successful answer; an error answer becomes an ApiFailure with its envelope's
 * `error`, `message` and `message_ja`, so a page handles every failure in one `catch`.
 */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    throw new ApiFailure(response.status, field(error, 'error') ?? 'error', field(error, 'message') ?? `HTTP ${response.status}`, field(error, 'message_ja'));
  }
  // A 2xx carries its body (every route answers an envelope); openapi-fetch types `data` as present then.
  return data as T;
}

/** What the page keeps of a console session (the cookie itself stays HttpOnly). */
export function consoleCredential(session: ConsoleSession): Credential {
  return { kind: 'console', role: session.kind, name: session.name, uuid: session.uuid ?? null, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}

/**
 * A page of a list route: `limit` entries after the id `after` (docs/api.md, Requests and responses).
 * The document declares both as strings of digits, as they travel in the URL.
 */
export function pageQuery(limit: number, after: number | undefined): { limit: string; after?: string } {
  return after === undefined ? { limit: String(limit) } : { limit: String(limit), after: String(after) };
}

/**
 * `GET /cities/{id}` with a city id: one city. The route answers a list only for an
 * administrator's uuid, which the console never sends.
 */
export async function cityById(id: number): Promise<City> {
  const { data } = await unwrap(publicApi.GET('/cities/{id}', { params: { path: { id: String(id) } } }));
  if (Array.isArray(data)) {
    throw new Error(`GET /cities/${id} answered a list instead of one city`);
  }
  return data;
}

/** The console session of this browser, if its cookie is still good (after a reload); null when not signed in. */
export async function currentConsoleSession(): Promise<Credential | null> {
  try {
    const found = (await unwrap(publicApi.GET('/console-session'))).data;
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
  // Without parameters the route answers the whole list (one city only for an id or a name).
  cityList ??= unwrap(publicApi.GET('/cities')).then(({ data }) => (Array.isArray(data) ? data : [data]));
  cityList.catch(() => {
    cityList = undefined;
  });
  return cityList;
}

export function refreshCities(): void {
  cityList = undefined;
  refreshMap();
}
