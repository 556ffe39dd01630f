import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

const playerKey = (): TableForeignKey => new TableForeignKey({ columnNames: ['player_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] });

/**
 * Votes per vote site and the players' own login texts (docs/game-server.md, "Votes").
 * `votes` holds each vote the game server reported, unique by the sender's id; `vote_totals` a
 * player's count per site (the imported total plus the votes recorded here), kept in the same
 * transaction; `vote_count_players` how many players have each count per site, so that a rank
 * (1 + players with more votes) is a sum over a few rows, never a count over all players.
 * `login_text_reports` remembers each reported change by the sender's id; `login_texts` holds the
 * current text.
 */
export class Votes1764300100000 implements MigrationInterface {
  name = 'Votes1764300100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'votes',
        columns: [
          columns.id(),
          keyColumn(queryRunner, 'origin', 16),
          keyColumn(queryRunner, 'source_id', 64),
          columns.uuid('player_uuid'),
          keyColumn(queryRunner, 'site', 64),
          columns.time('voted_at'),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_votes_origin_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_votes_player_site_time', columnNames: ['player_uuid', 'site', 'voted_at'] }),
        ],
        foreignKeys: [playerKey()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'vote_totals',
        columns: [
          { ...columns.uuid('player_uuid'), isPrimary: true },
          { ...keyColumn(queryRunner, 'site', 64), isPrimary: true },
          { ...columns.int('imported_count'), default: 0 },
          { ...columns.int('recorded_count'), default: 0 },
          columns.int('vote_count'),
          columns.time('last_voted_at', true),
        ],
        indices: [new TableIndex({ name: 'IDX_vote_totals_site_count', columnNames: ['site', 'vote_count'] })],
        foreignKeys: [playerKey()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'vote_count_players',
        columns: [{ ...keyColumn(queryRunner, 'site', 64), isPrimary: true }, { ...columns.int('vote_count'), isPrimary: true }, columns.int('players')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'login_text_reports',
        columns: [
          columns.id(),
          keyColumn(queryRunner, 'origin', 16),
          keyColumn(queryRunner, 'source_id', 64),
          columns.uuid('player_uuid'),
          columns.varchar('login_text', 255, true),
          columns.time('reported_at'),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_login_text_reports_origin_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_login_text_reports_player', columnNames: ['player_uuid'] }),
        ],
        foreignKeys: [playerKey()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'login_texts',
        columns: [
          { ...columns.uuid('player_uuid'), isPrimary: true },
          columns.varchar('login_text', 255, true),
          keyColumn(queryRunner, 'origin', 16),
          columns.time('reported_at', true),
          columns.time('updated_at'),
        ],
        foreignKeys: [playerKey()],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['login_texts', 'login_text_reports', 'vote_count_players', 'vote_totals', 'votes']) {
      await queryRunner.dropTable(table);
    }
  }
}
