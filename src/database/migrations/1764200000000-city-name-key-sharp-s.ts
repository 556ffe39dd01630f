import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * City name keys made before the comparison key folded capital sharp s twice ("ẞ" → "ß" → "ss";
 * docs/api.md, the rules of `POST /cities/create`) hold "ß" where the name has "ẞ": such a city
 * was found only by that spelling, and "SS" did not collide with it. In such a key every "ß" came
 * from "ẞ" (a "ß" in a name already folded to "ss", and no other code point folds to "ß"), and the
 * rest of the key is already folded, so the corrected key is the old one with "ß" written "ss";
 * the migration needs no copy of the fold, which may change after it. A city whose corrected key
 * another city already holds (two cities the rule now calls one name, both registered before it
 * did) keeps its old key, so neither city changes or goes.
 */
export class CityNameKeySharpS1764200000000 implements MigrationInterface {
  name = 'CityNameKeySharpS1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const keyColumn of ['name_key', 'kana_key'] as const) {
      const rows = (await queryRunner.query(`SELECT id, ${keyColumn} AS nameKey FROM cities WHERE ${keyColumn} LIKE ?`, ['%ß%'])) as Array<{ id: number; nameKey: string }>;
      for (const row of rows) {
        const key = row.nameKey.replaceAll('ß', 'ss');
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
