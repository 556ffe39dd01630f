import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';
import { keyColumn } from '../migration-columns';

/**
 * API key names are unique case-insensitively on every database (before, "Ops"
 * and "ops" could both exist on SQLite but not on MySQL). `name_key` holds the lower-case name,
 * compared byte for byte, under a unique index. Names that collide case-insensitively in an
 * existing database keep the oldest as is; each later one gets its id appended (`ops-7`), so
 * the upgrade never fails and every key keeps working.
 */
export class ApiKeyNameKey1763900001000 implements MigrationInterface {
  name = 'ApiKeyNameKey1763900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('api_keys', { ...keyColumn(queryRunner, 'name_key', 64), default: "''" } as never);
    const keys = (await queryRunner.query('SELECT id, name FROM api_keys ORDER BY id')) as Array<{ id: number | string; name: string }>;
    const taken = new Set<string>();
    for (const key of keys) {
      let name = key.name;
      if (taken.has(name.toLowerCase())) {
        const suffix = `-${key.id}`;
        name = `${name.slice(0, 64 - suffix.length)}${suffix}`;
      }
      taken.add(name.toLowerCase());
      await queryRunner.query('UPDATE api_keys SET name = ?, name_key = ? WHERE id = ?', [name, name.toLowerCase(), key.id]);
    }
    await queryRunner.createIndex('api_keys', new TableIndex({ name: 'IDX_api_keys_name_key', columnNames: ['name_key'], isUnique: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('api_keys', 'IDX_api_keys_name_key');
    await queryRunner.dropColumn('api_keys', 'name_key');
  }
}
