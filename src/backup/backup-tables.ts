/**
 * Every table of this version's schema, in the order a backup writes them (parents before the
 * rows that refer to them, though a restore loads with foreign keys off). A test compares this
 * list with the schema the migrations make on both databases (test/backup.e2e-spec.ts), so a
 * migration that adds a table fails it until the table is named here, and backed up.
 */
export const SCHEMA_TABLES = [
  'app_locks',
  'players',
  'api_keys',
  'api_key_revocations',
  'club_accounts',
  'club_tokens',
  'console_sessions',
  'user_keys',
  'cities',
  'city_requests',
  'city_audit',
  'login_records',
  'achievements',
  'achievement_unlocks',
  'votes',
  'vote_totals',
  'vote_count_players',
  'login_text_reports',
  'login_texts',
  'player_group_reports',
  'player_groups',
  'banlist_players',
  'banlist_bans',
  'banlist_sync_runs',
  'sync_leases',
  'data_versions',
  'event_seq',
  'events',
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
  'original_import_links',
  'punishments',
  'minigame_results',
  'community_banlist_bans',
  'evidence_files',
  'play_sessions',
  'play_days',
  'play_era_totals',
  'play_imported_totals',
  'away_records',
  'away_totals',
  'chat_accounts',
  'chat_second_accounts',
  'player_profile_links',
  'chat_ingest_receipts',
  'record_notes',
  'record_history',
] as const;

/** Bookkeeping of the database or of TypeORM, never data: the manifest records the migrations instead. */
export const BOOKKEEPING_TABLES = new Set(['migrations', 'sqlite_sequence', 'typeorm_metadata']);

/** The position of a table in the backup (unknown tables last, by name). */
export function tableOrder(name: string): number {
  const index = (SCHEMA_TABLES as readonly string[]).indexOf(name);
  return index === -1 ? SCHEMA_TABLES.length : index;
}
