import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';

const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

/**
 * A throwaway MariaDB database in the original service's layout (what is publicly known of it: no
 * CREATE TABLE was ever published, so column types vary here on purpose: DATETIME and TIMESTAMP,
 * numbers stored as text, BIT and TINYINT flags).
 */
export interface OriginalSource {
  name: string;
  url: string;
  query(sql: string, parameters?: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

export const ORIGINAL_TABLES = {
  login:
    'CREATE TABLE login (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), ip VARCHAR(64), host VARCHAR(255), countryName VARCHAR(64), city VARCHAR(64), ' +
    'permission VARCHAR(64), date DATETIME NULL, login_success TINYINT(1) NOT NULL DEFAULT 0)',
  cities:
    'CREATE TABLE cities (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(255), namekana VARCHAR(255), regionname VARCHAR(255), player VARCHAR(32), uuid VARCHAR(64) NULL, ' +
    'discord_userid VARCHAR(32), summary TEXT, name_origin TEXT, blocknum VARCHAR(32), corners TEXT, reason TEXT, created_at TIMESTAMP NULL, updated_at DATETIME NULL)',
  cities_new_waiting:
    'CREATE TABLE cities_new_waiting (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(255), namekana VARCHAR(255), regionname VARCHAR(255), player VARCHAR(32), uuid VARCHAR(64), ' +
    'discord_userid VARCHAR(32), summary TEXT, name_origin TEXT, corners TEXT, blocknum INT, reason TEXT, status INT NOT NULL DEFAULT 0, city_id INT NULL, created_at DATETIME)',
  cities_corners_waiting:
    'CREATE TABLE cities_corners_waiting (id INT AUTO_INCREMENT PRIMARY KEY, cities_id INT, corners_old TEXT, corners_new TEXT, status INT NOT NULL DEFAULT 0, created_at DATETIME)',
  cities_other_waiting:
    'CREATE TABLE cities_other_waiting (id INT AUTO_INCREMENT PRIMARY KEY, cities_id INT, name_old VARCHAR(255), name_new VARCHAR(255), namekana_old VARCHAR(255), namekana_new VARCHAR(255), ' +
    'regionname_old VARCHAR(255), regionname_new VARCHAR(255), summary_old TEXT, summary_new TEXT, name_origin_old TEXT, name_origin_new TEXT, status INT NOT NULL DEFAULT 0, created_at TIMESTAMP NULL)',
  discordlink:
    'CREATE TABLE discordlink (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), name VARCHAR(64), disid VARCHAR(32), discriminator VARCHAR(8), pex VARCHAR(32), ' +
    'disabled BIT(1) NOT NULL DEFAULT 0, expired_date TIMESTAMP NULL, dead_perm VARCHAR(32), dead_at TIMESTAMP NULL)',
  jaoSuperAchievement2_Type: 'CREATE TABLE jaoSuperAchievement2_Type (id INT PRIMARY KEY, title VARCHAR(255), description TEXT, hidden TINYINT(1), created_at DATETIME)',
  jaoSuperAchievement2: 'CREATE TABLE jaoSuperAchievement2 (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), achievementid INT, created_at DATETIME)',
  clubjaoafa:
    'CREATE TABLE clubjaoafa (id INT AUTO_INCREMENT PRIMARY KEY, uuid VARCHAR(64), token VARCHAR(32), clubgroup VARCHAR(16), password VARCHAR(255), nickname VARCHAR(64), ' +
    'expire_at DATETIME NULL, created_at DATETIME, updated_at DATETIME)',
  userkey: 'CREATE TABLE userkey (userkey VARCHAR(10), player VARCHAR(32), uuid VARCHAR(64), used TINYINT(1), created_time TIMESTAMP NULL)',
} as const;

export type OriginalTable = keyof typeof ORIGINAL_TABLES;

/** A new source database with the given tables (all of them by default). */
export async function createOriginalSource(tables: readonly OriginalTable[] = Object.keys(ORIGINAL_TABLES) as OriginalTable[]): Promise<OriginalSource> {
  const name = `original_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const connection = await createConnection({ uri: MYSQL_ADMIN_URL, multipleStatements: true });
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await connection.query(`USE \`${name}\``);
  // The original's dates are JST wall clock; invalid dates exist in old rows.
  await connection.query("SET time_zone = '+09:00', sql_mode = 'ALLOW_INVALID_DATES'");
  for (const table of tables) {
    await connection.query(ORIGINAL_TABLES[table]);
  }
  return {
    name,
    url: `${MYSQL_ADMIN_URL}/${name}`,
    query: async (sql, parameters = []) => {
      await connection.query(sql, parameters);
    },
    drop: async () => {
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}

/** Original corners JSON: `[{"id":1,"x":..,"z":..}]`, as strings or as numbers. */
export function originalCorners(x: number, z: number, size: number, asStrings: boolean): string {
  const far = size - 1;
  const points = [
    [x, z],
    [x, z + far],
    [x + far, z + far],
    [x + far, z],
  ];
  return JSON.stringify(points.map(([px, pz], index) => ({ id: index + 1, x: asStrings ? String(px) : px, z: asStrings ? String(pz) : pz })));
}
