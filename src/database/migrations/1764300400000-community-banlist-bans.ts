import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * The ban-list bans issued on the community's own server (original-sites.md section 3): kept as
 * the community's own records, apart from the ban-list mirror, so a mirror sync never deletes
 * them. Filled from the original's `mcbans_jaoafa` by `import:original` (docs/moving-from-original.md);
 * `banned_at_from` says where the time came from (the source row, the mirror's ban of that id, or
 * the import, when neither had one). Indexed for the bans site's lists by type, state and time,
 * and for one player's records.
 */
export class CommunityBanlistBans1764300400000 implements MigrationInterface {
  name = 'CommunityBanlistBans1764300400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'community_banlist_bans',
        columns: [
          { ...columns.bigint('ban_id'), isPrimary: true },
          columns.uuid('player_uuid'),
          columns.varchar('type', 8),
          columns.text('reason', false),
          columns.varchar('banned_by', 64, true),
          columns.time('banned_at'),
          columns.varchar('banned_at_from', 8),
          columns.bool('active', true),
          columns.varchar('origin', 16),
          keyColumn(queryRunner, 'source_id', 64),
          columns.time('created_at'),
          columns.time('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_community_banlist_bans_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_community_banlist_bans_list', columnNames: ['type', 'active', 'banned_at'] }),
          new TableIndex({ name: 'IDX_community_banlist_bans_player', columnNames: ['player_uuid', 'banned_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('community_banlist_bans');
  }
}
