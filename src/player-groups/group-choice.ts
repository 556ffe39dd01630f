/** Which permission group a player has: the latest of the group reports and the logins. Pure. */

export interface CurrentGroup {
  /** Lower case; `default` when nothing says otherwise. */
  group: string;
  /** When that group was last reported: by the report that set it, or the latest login that carried it. */
  reportedAt: Date | null;
  /** When a temporary group ends; null: it does not, or unknown. */
  expiresAt: Date | null;
}

export interface StoredGroup {
  group: string;
  expiresAt: Date | null;
  reportedAt: Date;
}

/** The group as stored and compared: trimmed, lower case; none when empty. */
export function normaliseGroup(name: string | null | undefined): string | null {
  const trimmed = name?.trim().toLowerCase() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * The stored group report, unless the latest login (which carries the group the player had then)
 * is newer; a login without a permission says nothing. When the login's group is the reported one,
 * its end is kept.
 */
export function currentGroup(report: StoredGroup | null, login: { permission: string | null; lastLogin: Date | null }): CurrentGroup {
  const loginGroup = login.lastLogin === null ? null : normaliseGroup(login.permission);
  if (report && (loginGroup === null || login.lastLogin === null || report.reportedAt >= login.lastLogin)) {
    return { group: report.group, reportedAt: report.reportedAt, expiresAt: report.expiresAt };
  }
  if (loginGroup !== null) {
    return { group: loginGroup, reportedAt: login.lastLogin, expiresAt: report?.group === loginGroup ? report.expiresAt : null };
  }
  return { group: 'default', reportedAt: null, expiresAt: null };
}
