import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({ name: 'app_locks', columns: [{ ...columns.varchar('name', 64), isPrimary: true }] }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'players',
        columns: [
          { ...columns.uuid('uuid'), isPrimary: true },
          columns.varchar('mcid', 16, true),
          keyColumn(queryRunner, 'mcid_key', 16, true),
          { ...columns.varchar('chatid', 20, true), isUnique: true },
          columns.varchar('permission', 64, true),
          columns.time('first_login', true),
          columns.time('last_login', true),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'IDX_players_mcid_key_last_login', columnNames: ['mcid_key', 'last_login'] }),
          new TableIndex({ name: 'IDX_players_first_login', columnNames: ['first_login'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          columns.id(),
          { ...columns.varchar('name', 64), isUnique: true },
          { ...columns.varchar('key_hash', 64), isUnique: true },
          columns.varchar('scopes', 255),
          columns.time('created_at'),
          columns.time('last_used_at', true),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'club_accounts',
        columns: [
          columns.id(),
          { ...columns.uuid('player_uuid'), isUnique: true },
          columns.varchar('password_hash', 255),
          columns.varchar('nickname', 128, true),
          { ...columns.varchar('clubgroup', 16), default: "'default'" },
          columns.int('current_token_id', true),
          columns.time('created_at'),
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['player_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'club_tokens',
        columns: [
          columns.id(),
          columns.int('account_id'),
          { ...columns.varchar('token_hash', 64), isUnique: true },
          columns.time('issued_at'),
          columns.time('expires_at'),
          columns.time('logged_out_at', true),
        ],
        indices: [new TableIndex({ name: 'IDX_club_tokens_account', columnNames: ['account_id'] })],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['account_id'],
            referencedTableName: 'club_accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'user_keys',
        columns: [
          columns.id(),
          { ...columns.uuid('player_uuid'), isUnique: true },
          { ...columns.varchar('key_hash', 64), isUnique: true },
          columns.time('created_at'),
          columns.time('expires_at'),
          columns.time('spent_at', true),
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['player_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['user_keys', 'club_tokens', 'club_accounts', 'api_keys', 'players', 'app_locks']) {
      await queryRunner.dropTable(table);
    }
  }
}
