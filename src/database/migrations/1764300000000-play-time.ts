import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Play time (docs/game-server.md, "Play time"): the sessions the game server reports (and the
 * imported per-session rows), and what the players site reads, kept up to date as sessions
 * arrive: seconds per player and day (the heatmap, at most a day each), per player and era (an
 * imported part and the recorded sessions), and away time. No foreign key to players: rows of a
 * player the import has not brought yet are kept, as achievement unlocks are.
 */
export class PlayTime1764300000000 implements MigrationInterface {
  name = 'PlayTime1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'play_sessions',
        columns: [
          columns.id(),
          // 'game-server' or 'original' (the import): the sender's own id is unique within its origin.
          columns.varchar('origin', 16),
          keyColumn(queryRunner, 'source_id', 128),
          columns.uuid('player_uuid'),
          // Which server reported it (API key id and the batch's server name): what serverStartedAt closes.
          keyColumn(queryRunner, 'reporter', 96, true),
          columns.time('started_at'),
          columns.time('counted_until'),
          columns.time('ended_at', true),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_play_sessions_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_play_sessions_player_started', columnNames: ['player_uuid', 'started_at'] }),
          new TableIndex({ name: 'IDX_play_sessions_reporter_ended', columnNames: ['reporter', 'ended_at'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'play_days',
        columns: [
          { ...columns.uuid('player_uuid'), isPrimary: true },
          // YYYY-MM-DD in COMMUNITY_TIME_ZONE when the play was counted.
          { ...columns.varchar('day', 10), isPrimary: true },
          columns.int('seconds'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'play_era_totals',
        columns: [
          { ...columns.uuid('player_uuid'), isPrimary: true },
          { ...columns.varchar('era', 32), isPrimary: true },
          { ...columns.bigint('imported_seconds'), default: 0 },
          { ...columns.bigint('recorded_seconds'), default: 0 },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'play_imported_totals',
        columns: [
          columns.id(),
          columns.varchar('origin', 16),
          keyColumn(queryRunner, 'source_id', 128),
          columns.uuid('player_uuid'),
          columns.varchar('era', 32),
          columns.bigint('seconds'),
          columns.time('created_at'),
        ],
        indices: [new TableIndex({ name: 'UQ_play_imported_totals_source', columnNames: ['origin', 'source_id'], isUnique: true })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'away_records',
        columns: [
          columns.id(),
          columns.varchar('origin', 16),
          keyColumn(queryRunner, 'source_id', 128),
          columns.uuid('player_uuid'),
          columns.int('seconds'),
          columns.time('at', true),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_away_records_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_away_records_player', columnNames: ['player_uuid'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'away_totals',
        columns: [{ ...columns.uuid('player_uuid'), isPrimary: true }, { ...columns.bigint('seconds'), default: 0 }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['away_totals', 'away_records', 'play_imported_totals', 'play_era_totals', 'play_days', 'play_sessions']) {
      await queryRunner.dropTable(table);
    }
  }
}
