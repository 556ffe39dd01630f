import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columns } from '../migration-columns';

/**
 * Login records, achievement definitions and unlocks. `players` keeps the latest login's name
 * and permission (written with each batch), so lookups by uuid, game id and chat id read one
 * indexed row of `players` and never scan `login_records`.
 */
export class Users1763800002000 implements MigrationInterface {
  name = 'Users1763800002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'login_records',
        columns: [
          columns.id(),
          // Same type and collation as players.uuid, which the foreign key needs on MySQL.
          columns.uuid('player_uuid'),
          columns.varchar('mcid', 16),
          columns.time('logged_in_at'),
          columns.varchar('permission', 64, true),
        ],
        indices: [
          // Makes a re-sent record an exact repeat (INSERT IGNORE) and serves every per-player query.
          new TableIndex({ name: 'UQ_login_records_player_time', columnNames: ['player_uuid', 'logged_in_at'], isUnique: true }),
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['player_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'achievements',
        columns: [
          { ...columns.int('id'), isPrimary: true },
          columns.varchar('title', 255),
          columns.text('description', false),
          columns.bool('hidden'),
          columns.time('created_at'),
          columns.time('updated_at'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'achievement_unlocks',
        columns: [
          columns.id(),
          // No foreign key to players: unlocks of a player not seen yet are kept (docs/game-server.md, What the plugin sends).
          columns.uuid('player_uuid'),
          columns.int('achievement_id'),
          columns.time('unlocked_at'),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_achievement_unlocks_player_achievement', columnNames: ['player_uuid', 'achievement_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_achievement_unlocks_achievement', columnNames: ['achievement_id'] }),
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['achievement_id'], referencedTableName: 'achievements', referencedColumnNames: ['id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['achievement_unlocks', 'achievements', 'login_records']) {
      await queryRunner.dropTable(table);
    }
  }
}
