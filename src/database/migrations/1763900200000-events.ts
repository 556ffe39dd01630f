import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';
import { columns } from '../migration-columns';

/**
 * The outbox of events, the webhooks that receive them, one row per delivery and
 * one per attempt (the deliveries log).
 *
 * Event ids are not auto-increment: they come from the single row of `event_seq`, incremented in
 * the writing transaction, so ids are taken in commit order (the row lock serialises the writers
 * on MariaDB; SQLite has one writer) and a reader never sees id N+1 before id N.
 */
export class Events1763900200000 implements MigrationInterface {
  name = 'Events1763900200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const isMysql = queryRunner.connection.options.type === 'mysql';
    // An event carries a request and a city (corners included): more than TEXT's 64 KiB on MySQL is possible.
    const bigText = (name: string, nullable = false): TableColumnOptions => ({ name, type: isMysql ? 'mediumtext' : 'text', isNullable: nullable });

    await queryRunner.createTable(new Table({ name: 'event_seq', columns: [{ ...columns.int('id'), isPrimary: true }, { ...columns.bigint('last'), default: 0 }] }));
    await queryRunner.query('INSERT INTO event_seq (id, last) VALUES (1, 0)');

    await queryRunner.createTable(
      new Table({
        name: 'events',
        columns: [{ ...columns.bigint('id'), isPrimary: true }, columns.varchar('type', 64), bigText('data'), columns.time('at')],
        indices: [new TableIndex({ name: 'IDX_events_at', columnNames: ['at'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          columns.id(),
          columns.text('url', false),
          columns.text('events', false),
          columns.varchar('format', 16),
          columns.varchar('secret', 128),
          columns.bool('active', true),
          columns.bool('failing', false),
          columns.time('created_at'),
          columns.time('last_delivery_at', true),
          // The last event id this webhook has taken a delivery for (or skipped as not subscribed).
          { ...columns.bigint('cursor_event_id'), default: 0 },
          // The delivery lease: at most one instance works on a webhook's queue at a time.
          columns.varchar('lease_holder', 128, true),
          columns.time('lease_expires_at', true),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          columns.id(),
          columns.varchar('delivery_id', 36),
          columns.int('webhook_id'),
          columns.bigint('event_id', true),
          columns.varchar('type', 64),
          // pending | delivered | failed
          columns.varchar('status', 16),
          { ...columns.int('attempts'), default: 0 },
          columns.time('next_attempt_at'),
          columns.time('created_at'),
          columns.time('completed_at', true),
        ],
        indices: [
          new TableIndex({ name: 'UQ_webhook_deliveries_delivery_id', columnNames: ['delivery_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_webhook_deliveries_queue', columnNames: ['webhook_id', 'status', 'id'] }),
          new TableIndex({ name: 'IDX_webhook_deliveries_created', columnNames: ['created_at'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          columns.id(),
          columns.int('webhook_id'),
          columns.varchar('delivery_id', 36),
          columns.bigint('event_id', true),
          columns.int('attempt'),
          columns.int('status_code', true),
          columns.varchar('error', 255, true),
          columns.int('duration_ms'),
          columns.time('at'),
        ],
        indices: [
          new TableIndex({ name: 'IDX_webhook_attempts_webhook', columnNames: ['webhook_id', 'id'] }),
          new TableIndex({ name: 'IDX_webhook_attempts_at', columnNames: ['at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks', 'events', 'event_seq']) {
      await queryRunner.dropTable(table);
    }
  }
}
