import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * A player's latest logins (the players site's `recentLogin?uuid=`, the console's player page) read
 * from one index alone: the unique key (player, time) found the rows, but each then cost a
 * primary-key read for its game id, up to 100 per request. The id rides along in every InnoDB
 * index; SQLite covers it the same way (rowid).
 */
export class LoginRecordsRecentOf1764300910000 implements MigrationInterface {
  name = 'LoginRecordsRecentOf1764300910000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('login_records', new TableIndex({ name: 'IDX_login_records_player_recent', columnNames: ['player_uuid', 'logged_in_at', 'mcid'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('login_records', 'IDX_login_records_player_recent');
  }
}
