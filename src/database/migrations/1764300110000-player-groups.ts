import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

const playerKey = (): TableForeignKey => new TableForeignKey({ columnNames: ['player_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] });

/**
 * Permission groups with their end (docs/game-server.md, "Permission groups"):
 * `player_group_reports` remembers each reported change by the sender's id, `player_groups` the
 * player's group as last reported (a login's permission, kept by `players`, wins when newer).
 */
export class PlayerGroups1764300110000 implements MigrationInterface {
  name = 'PlayerGroups1764300110000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'player_group_reports',
        columns: [
          columns.id(),
          keyColumn(queryRunner, 'origin', 16),
          keyColumn(queryRunner, 'source_id', 64),
          columns.uuid('player_uuid'),
          columns.varchar('group_name', 64),
          columns.time('expires_at', true),
          columns.time('reported_at'),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_player_group_reports_origin_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_player_group_reports_player', columnNames: ['player_uuid'] }),
        ],
        foreignKeys: [playerKey()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'player_groups',
        columns: [
          { ...columns.uuid('player_uuid'), isPrimary: true },
          columns.varchar('group_name', 64),
          columns.time('expires_at', true),
          columns.time('reported_at'),
          keyColumn(queryRunner, 'origin', 16),
          columns.time('updated_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_player_groups_group', columnNames: ['group_name'] })],
        foreignKeys: [playerKey()],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('player_groups');
    await queryRunner.dropTable('player_group_reports');
  }
}
