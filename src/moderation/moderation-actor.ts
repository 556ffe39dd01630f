import type { Caller } from '../auth/caller';

/**
 * Who did something, as a record's history and a lift spell it: `apikey:<key name>` for an
 * operator key, `club:<game id>` for a club admin (`club:<uuid>` when the account has no game id).
 * A city's history names the same two callers the same way, except that it names an admin by uuid;
 * here the console shows the name.
 */
export function moderationActorOf(caller: Caller): string {
  if (caller.kind === 'apikey') {
    return `apikey:${caller.key.name}`;
  }
  return `club:${caller.session.mcid ?? caller.session.playerUuid}`;
}
