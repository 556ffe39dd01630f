import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Console sessions (docs/console-and-maps.md, Signing in to the console): the console's cookie,
 * stored as its sha256 only, and what it stands for: an operator API key (by id) or a club
 * admin's token (by id). The credential is checked again on every use, so a revoked key or an
 * ended token ends the session; the times let the cleanup find what has expired.
 */
export class ConsoleSessions1764100100000 implements MigrationInterface {
  name = 'ConsoleSessions1764100100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'console_sessions',
        columns: [
          columns.id(),
          keyColumn(queryRunner, 'session_hash', 64),
          columns.int('api_key_id', true),
          columns.int('club_token_id', true),
          columns.time('created_at'),
          columns.time('last_seen_at'),
          columns.time('expires_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_console_sessions_hash', columnNames: ['session_hash'], isUnique: true }),
          new TableIndex({ name: 'IDX_console_sessions_expires', columnNames: ['expires_at'] }),
          new TableIndex({ name: 'IDX_console_sessions_seen', columnNames: ['last_seen_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('console_sessions');
  }
}
