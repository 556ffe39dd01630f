import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Punishments (docs/game-server.md, Punishments): jail, chat jail (mute), area ban and the game's
 * own ban, in force or lifted. One row per punishment, whoever reported it: the game server by
 * its own id (unique per origin and kind), the original database's import by (table, id).
 * `id` is the service's own id, shown to the players and bans sites.
 *
 * Indexes: a player's list (the players site, every page view), and the bans site's lists by
 * kind, state and time, and by issuer.
 */
export class Punishments1764300200000 implements MigrationInterface {
  name = 'Punishments1764300200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'punishments',
        columns: [
          columns.id(),
          columns.varchar('kind', 8),
          columns.varchar('origin', 16),
          keyColumn(queryRunner, 'source_id', 80),
          columns.uuid('player_uuid'),
          columns.varchar('mcid', 64),
          columns.text('reason', false),
          columns.text('testment', true),
          keyColumn(queryRunner, 'issued_by', 64),
          columns.time('issued_at'),
          columns.bool('active', true),
          columns.time('lifted_at', true),
          columns.time('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_punishments_source', columnNames: ['origin', 'kind', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_punishments_player', columnNames: ['player_uuid', 'issued_at'] }),
          new TableIndex({ name: 'IDX_punishments_kind_state', columnNames: ['kind', 'active', 'issued_at'] }),
          new TableIndex({ name: 'IDX_punishments_kind_time', columnNames: ['kind', 'issued_at'] }),
          new TableIndex({ name: 'IDX_punishments_issuer', columnNames: ['issued_by', 'issued_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('punishments');
  }
}
