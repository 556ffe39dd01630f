import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Results of the community's timing mini-game, periodmatch (docs/game-server.md, Mini-game
 * results). `score` is the ranking value computed when a result arrives (src/mini-games/
 * periodmatch-score.ts), so a result's place in its category (`match_time`) is one count over
 * the (match_time, score) index. The sender's id is unique per origin.
 */
export class MiniGames1764300201000 implements MigrationInterface {
  name = 'MiniGames1764300201000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'minigame_results',
        columns: [
          columns.id(),
          columns.varchar('origin', 16),
          keyColumn(queryRunner, 'source_id', 80),
          columns.uuid('player_uuid'),
          columns.varchar('mcid', 64),
          columns.int('success'),
          columns.int('failure'),
          columns.int('match_time'),
          columns.real('real_match_time'),
          columns.real('calc_match_time'),
          columns.bool('status', true),
          columns.real('score'),
          columns.time('start_time'),
          columns.time('end_time'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_minigame_results_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_minigame_results_player', columnNames: ['player_uuid', 'end_time'] }),
          new TableIndex({ name: 'IDX_minigame_results_rank', columnNames: ['match_time', 'score'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('minigame_results');
  }
}
