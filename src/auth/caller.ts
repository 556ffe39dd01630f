import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import type { ClubSession } from '../club/club-session';

/**
 * Who made a request, once a guard has checked their credential: a club user or an API key. Its
 * own file, imported by the guard's decorators and by console sessions alike, so that neither
 * has to import the other's to name it.
 */
export type Caller = { kind: 'club'; session: ClubSession } | { kind: 'apikey'; key: ApiKeyPrincipal };
