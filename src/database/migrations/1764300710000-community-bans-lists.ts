import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The bans site's lists of the community's own ban-list records (docs/bans-site.md): newest first
 * by time and then ban id, of one type, in force or of every state, or of one player, read as the
 * first rows of an index. The ban id is in the indexes so that the order is the index's on SQLite too (there the
 * primary key of a bigint is not the rowid an index ends with).
 */
export class CommunityBansLists1764300710000 implements MigrationInterface {
  name = 'CommunityBansLists1764300710000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('community_banlist_bans', 'IDX_community_banlist_bans_list');
    await queryRunner.createIndex('community_banlist_bans', new TableIndex({ name: 'IDX_community_banlist_bans_state', columnNames: ['type', 'active', 'banned_at', 'ban_id'] }));
    await queryRunner.createIndex('community_banlist_bans', new TableIndex({ name: 'IDX_community_banlist_bans_time', columnNames: ['type', 'banned_at', 'ban_id'] }));
    await queryRunner.dropIndex('community_banlist_bans', 'IDX_community_banlist_bans_player');
    await queryRunner.createIndex('community_banlist_bans', new TableIndex({ name: 'IDX_community_banlist_bans_player', columnNames: ['player_uuid', 'banned_at', 'ban_id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('community_banlist_bans', 'IDX_community_banlist_bans_player');
    await queryRunner.createIndex('community_banlist_bans', new TableIndex({ name: 'IDX_community_banlist_bans_player', columnNames: ['player_uuid', 'banned_at'] }));
    await queryRunner.dropIndex('community_banlist_bans', 'IDX_community_banlist_bans_time');
    await queryRunner.dropIndex('community_banlist_bans', 'IDX_community_banlist_bans_state');
    await queryRunner.createIndex('community_banlist_bans', new TableIndex({ name: 'IDX_community_banlist_bans_list', columnNames: ['type', 'active', 'banned_at'] }));
  }
}
