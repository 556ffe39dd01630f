/** A revoked API key as the live database lists it. */
export interface Revocation {
  keyHash: string;
  revokedAt: string;
}

type Execute = (sql: string, params?: unknown[]) => Promise<unknown>;

/**
 * Credentials after a restore (docs/backup-and-restore.md): applied to the scratch copy before it
 * is swapped in. Every club token and every console session ends (everyone signs in again); API keys revoked in the replaced data stay revoked, with their revocations
 * carried over so that a later restore still knows them.
 */
export async function applyCredentialRules(execute: Execute, revocations: Revocation[]): Promise<void> {
  await execute('UPDATE club_accounts SET current_token_id = NULL');
  await execute('DELETE FROM club_tokens');
  await execute('DELETE FROM console_sessions');
  for (const revocation of revocations) {
    await execute('DELETE FROM api_keys WHERE key_hash = ?', [revocation.keyHash]);
    await execute('DELETE FROM api_key_revocations WHERE key_hash = ?', [revocation.keyHash]);
    await execute('INSERT INTO api_key_revocations (key_hash, revoked_at) VALUES (?, ?)', [revocation.keyHash, revocation.revokedAt]);
  }
}
