import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Chat accounts (docs/game-server.md, "Chat bot"): names, discriminators and avatars of chat
 * accounts by chat id, second accounts registered to a main chat account, players' profile links,
 * and the receipts that make the chat bot's and the import's reports idempotent by the sender's id.
 */
export class ChatAccounts1764300300000 implements MigrationInterface {
  name = 'ChatAccounts1764300300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'chat_accounts',
        columns: [
          { ...keyColumn(queryRunner, 'chatid', 20), isPrimary: true },
          columns.varchar('name', 100),
          columns.varchar('discriminator', 4),
          columns.varchar('avatar_url', 512, true),
          columns.time('reported_at', true),
          columns.time('updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'chat_second_accounts',
        columns: [
          columns.id(),
          keyColumn(queryRunner, 'origin', 16),
          keyColumn(queryRunner, 'source_id', 64),
          keyColumn(queryRunner, 'chatid', 20),
          keyColumn(queryRunner, 'main_chatid', 20),
          columns.time('registered_at'),
          columns.time('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_chat_second_accounts_source', columnNames: ['origin', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_chat_second_accounts_main', columnNames: ['main_chatid', 'registered_at', 'id'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'player_profile_links',
        columns: [
          { ...keyColumn(queryRunner, 'player_uuid', 36), isPrimary: true },
          columns.varchar('twitter_id', 64, true),
          columns.varchar('github_id', 39, true),
          columns.varchar('home_url', 512, true),
          columns.time('updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'chat_ingest_receipts',
        columns: [columns.id(), keyColumn(queryRunner, 'origin', 16), keyColumn(queryRunner, 'kind', 32), keyColumn(queryRunner, 'source_id', 64), columns.time('received_at')],
        indices: [new TableIndex({ name: 'UQ_chat_ingest_receipts_source', columnNames: ['origin', 'kind', 'source_id'], isUnique: true })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('chat_ingest_receipts');
    await queryRunner.dropTable('player_profile_links');
    await queryRunner.dropTable('chat_second_accounts');
    await queryRunner.dropTable('chat_accounts');
  }
}
