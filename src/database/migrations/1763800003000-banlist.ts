import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columns } from '../migration-columns';

/**
 * The ban-list mirror (docs/game-server.md, The ban-list mirror): per-player data, ban records, a log of sync runs,
 * and the lease that keeps sync runs from overlapping across instances sharing this database.
 */
export class Banlist1763800003000 implements MigrationInterface {
  name = 'Banlist1763800003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'banlist_players',
        columns: [
          { ...columns.uuid('uuid'), isPrimary: true },
          // The upstream's name for the player; shown only when we have no login record naming them.
          columns.varchar('upstream_name', 64, true),
          columns.real('reputation'),
          columns.time('synced_at'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'banlist_bans',
        columns: [
          // The upstream's ban id, not generated here: it is the id clients look bans up by.
          { ...columns.bigint('ban_id'), isPrimary: true },
          columns.uuid('player_uuid'),
          columns.varchar('type', 8),
          columns.text('reason', false),
          columns.varchar('server', 255, true),
          columns.varchar('banned_by', 64, true),
          columns.real('lost_rep', true),
          columns.time('banned_at'),
          columns.time('synced_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_banlist_bans_player', columnNames: ['player_uuid'] })],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['player_uuid'],
            referencedTableName: 'banlist_players',
            referencedColumnNames: ['uuid'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'banlist_sync_runs',
        columns: [
          columns.id(),
          columns.varchar('triggered_by', 16),
          columns.int('players'),
          columns.int('updated'),
          columns.int('failed'),
          columns.int('removed_bans'),
          columns.time('started_at'),
          columns.time('finished_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_banlist_sync_runs_finished_at', columnNames: ['finished_at'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'sync_leases',
        columns: [
          { ...columns.varchar('name', 64), isPrimary: true },
          columns.varchar('holder', 128, true),
          columns.time('expires_at', true),
        ],
      }),
    );
    // The row exists from the start, so taking the lease is always one conditional UPDATE.
    await queryRunner.query('INSERT INTO sync_leases (name, holder, expires_at) VALUES (?, NULL, NULL)', ['banlist-sync']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['sync_leases', 'banlist_sync_runs', 'banlist_bans', 'banlist_players']) {
      await queryRunner.dropTable(table);
    }
  }
}
