import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Evidence pictures attached to records (docs/bans-site.md, "Evidence pictures"): the stripped
 * bytes are stored in the row (BLOB on SQLite, MEDIUMBLOB on MariaDB: up to 16 MiB, above the
 * 6 MiB a stored picture may have), so every replica and every backup has them and no file store
 * is needed. `name` is generated once and is the key the bans site fetches by. Indexed for a
 * record's pictures, oldest first.
 */
export class EvidenceFiles1764300700000 implements MigrationInterface {
  name = 'EvidenceFiles1764300700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const isMysql = queryRunner.connection.options.type === 'mysql';
    await queryRunner.createTable(
      new Table({
        name: 'evidence_files',
        columns: [
          { ...keyColumn(queryRunner, 'name', 40), isPrimary: true },
          columns.varchar('record_kind', 8),
          keyColumn(queryRunner, 'record_id', 64),
          columns.varchar('content_type', 16),
          { name: 'bytes', type: isMysql ? 'mediumblob' : 'blob', isNullable: false },
          columns.int('size'),
          columns.int('width'),
          columns.int('height'),
          columns.varchar('added_by', 64),
          columns.time('added_at'),
        ],
        indices: [new TableIndex({ name: 'IDX_evidence_files_record', columnNames: ['record_kind', 'record_id', 'added_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('evidence_files');
  }
}
