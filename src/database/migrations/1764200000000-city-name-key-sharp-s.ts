import { MigrationInterface, QueryRunner } from 'typeorm';
import { nameKey } from '../../cities/city-name';

/**
 * City name keys made before the comparison key folded capital sharp s twice ("ẞ" → "ß" → "ss",
 * docs/api-guide.md, "City names") hold "ß" where the name has "ẞ"; such a city was found only by
 * that spelling, and "SS" did not collide with it. Every key holding "ß" is made again from its
 * name. A city whose corrected key another city already holds (two cities the rule now calls the
 * same name, both registered before it did) keeps its old key, so neither city changes or goes.
 */
export class CityNameKeySharpS1764200000000 implements MigrationInterface {
  name = 'CityNameKeySharpS1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [keyColumn, nameColumn] of [
      ['name_key', 'name'],
      ['kana_key', 'name_kana'],
    ] as const) {
      const rows = (await queryRunner.query(`SELECT id, ${nameColumn} AS name, ${keyColumn} AS nameKey FROM cities WHERE ${keyColumn} LIKE ?`, ['%ß%'])) as Array<{
        id: number;
        name: string;
        nameKey: string;
      }>;
      for (const row of rows) {
        const key = nameKey(row.name);
        if (key === row.nameKey) {
          continue;
        }
        const holders = (await queryRunner.query(`SELECT id FROM cities WHERE ${keyColumn} = ?`, [key])) as unknown[];
        if (holders.length === 0) {
          await queryRunner.query(`UPDATE cities SET ${keyColumn} = ? WHERE id = ?`, [key, row.id]);
        }
      }
    }
  }

  async down(): Promise<void> {
    // The old keys are not kept: a corrected key stays correct after a downgrade too.
  }
}
