import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * The operator API for moderation (docs/api.md, Moderation): who lifted a punishment from the
 * console and why, and when the game server confirmed that lift (three columns of `punishments`,
 * null for the game server's own lifts and for imported rows), one note per record and each
 * record's history (lifts, notes, evidence).
 *
 * A record is named by its kind (`gban`, `lban`, `vban`, `eban`, `chatban`, `jail`) and its id as
 * text, the same pair the evidence files use; the history is read per record, oldest first, by
 * its index.
 */
export class Moderation1764300800000 implements MigrationInterface {
  name = 'Moderation1764300800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('punishments', [
      new TableColumn(columns.varchar('lifted_by', 100, true)),
      new TableColumn(columns.text('lift_reason', true)),
      new TableColumn(columns.time('lift_confirmed_at', true)),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'record_notes',
        columns: [
          { ...keyColumn(queryRunner, 'record_kind', 8), isPrimary: true },
          { ...keyColumn(queryRunner, 'record_id', 40), isPrimary: true },
          columns.text('note', false),
          columns.varchar('updated_by', 100),
          columns.time('updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'record_history',
        columns: [
          columns.id(),
          keyColumn(queryRunner, 'record_kind', 8),
          keyColumn(queryRunner, 'record_id', 40),
          columns.time('at'),
          columns.varchar('actor', 100),
          columns.varchar('action', 20),
          columns.text('detail', true),
        ],
        indices: [new TableIndex({ name: 'IDX_record_history_record', columnNames: ['record_kind', 'record_id', 'id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('record_history');
    await queryRunner.dropTable('record_notes');
    await queryRunner.dropColumn('punishments', 'lift_confirmed_at');
    await queryRunner.dropColumn('punishments', 'lift_reason');
    await queryRunner.dropColumn('punishments', 'lifted_by');
  }
}
