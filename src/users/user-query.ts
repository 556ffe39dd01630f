import { CHATID_PATTERN, classifyPlayerIdentifier, MCID_PATTERN, PlayerIdentifier, UUID_PATTERN } from '../common/identifiers';
import { type LocalizedText, msg } from '../common/errors/messages';

/** The identifiers a user lookup may carry: the query names, and the path segment of `/users/{x}`. */
export interface UserQuery {
  uuid?: string;
  chatid?: string;
  mcid?: string;
  /** The `{x}` of `/users/{x}`. */
  identifier?: string;
}

export type UserQueryResolution = { ok: true; identifier: PlayerIdentifier } | { ok: false; field: string; message: LocalizedText };

/**
 * A query identifier (docs/api.md, Players) wins over the path (uuid, then chatid, then mcid); the
 * path is read as a uuid, else 17–20 digits as a chat id, else a game id. Pure.
 */
export function resolveUserQuery(query: UserQuery): UserQueryResolution {
  if (query.uuid !== undefined) {
    return UUID_PATTERN.test(query.uuid)
      ? { ok: true, identifier: { kind: 'uuid', value: query.uuid.toLowerCase() } }
      : { ok: false, field: 'uuid', message: msg('validation.uuid', { field: 'uuid' }) };
  }
  if (query.chatid !== undefined) {
    return CHATID_PATTERN.test(query.chatid)
      ? { ok: true, identifier: { kind: 'chatid', value: query.chatid } }
      : { ok: false, field: 'chatid', message: msg('validation.chatid', { field: 'chatid' }) };
  }
  if (query.mcid !== undefined) {
    return MCID_PATTERN.test(query.mcid)
      ? { ok: true, identifier: { kind: 'mcid', value: query.mcid } }
      : { ok: false, field: 'mcid', message: msg('validation.mcid', { field: 'mcid' }) };
  }
  if (query.identifier !== undefined) {
    const identifier = classifyPlayerIdentifier(query.identifier);
    return identifier
      ? { ok: true, identifier }
      : { ok: false, field: 'identifier', message: msg('users.pathIdentifier') };
  }
  return { ok: false, field: 'uuid', message: msg('users.identifierRequired') };
}
