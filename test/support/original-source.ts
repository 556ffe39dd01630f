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

/**
 * The players site's source tables (original-sites.md section 4). Several have no id column (their
 * layouts were never published): the importer identifies their rows by key columns or a hash.
 * Types vary on purpose: epoch numbers and DATETIMEs, BIT, TINYINT and text statuses.
 */
export const PLAYERS_SITE_TABLES = {
  'daily-onlinetime': 'CREATE TABLE `daily-onlinetime` (uuid VARCHAR(64), player VARCHAR(32), onlinetime INT, created_at DATETIME NULL)',
  onlinetime: 'CREATE TABLE onlinetime (player VARCHAR(32), uuid VARCHAR(64), onlinetime BIGINT, updated_at TIMESTAMP NULL)',
  afktime: 'CREATE TABLE afktime (uuid VARCHAR(64), seconds INT, created_at TIMESTAMP NULL)',
  vote: 'CREATE TABLE vote (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), count INT, lasttime BIGINT NULL, logintext TEXT NULL)',
  vote_monocraft: 'CREATE TABLE vote_monocraft (uuid VARCHAR(64) NOT NULL PRIMARY KEY, player VARCHAR(32), count VARCHAR(16), last DATETIME NULL)',
  permissions: 'CREATE TABLE permissions (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), permission VARCHAR(32), expire_at TIMESTAMP NULL, updated_at DATETIME NULL)',
  subaccount: 'CREATE TABLE subaccount (disid VARCHAR(32), name VARCHAR(64), discriminator VARCHAR(8), main_disid VARCHAR(32), created_at DATETIME NULL)',
  socials: 'CREATE TABLE socials (uuid VARCHAR(64), twitterId VARCHAR(64), githubId VARCHAR(64), homeUrl VARCHAR(255), created_at DATETIME NULL, update_at DATETIME NULL)',
  jail:
    'CREATE TABLE jail (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), banned_by VARCHAR(32), reason MEDIUMTEXT, testment TEXT NULL, status TINYINT(1), remover VARCHAR(32) NULL, ' +
    'created_at DATETIME NULL, updated_at DATETIME NULL)',
  eban: 'CREATE TABLE eban (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), banned_by VARCHAR(32), reason TEXT, status VARCHAR(16), remover VARCHAR(32) NULL, created_at TIMESTAMP NULL)',
  chatban: 'CREATE TABLE chatban (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), banned_by VARCHAR(32), reason TEXT, status BIT(1), created_at DATETIME NULL)',
  chatjail: 'CREATE TABLE chatjail (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), banned_by VARCHAR(32), reason TEXT, status TINYINT(1), created_at DATETIME NULL)',
  periodmatch2:
    'CREATE TABLE periodmatch2 (id INT AUTO_INCREMENT PRIMARY KEY, uuid VARCHAR(64), player VARCHAR(32), success INT, failure INT, match_time INT, real_match_time INT, calc_match_time INT, ' +
    'start_time DATETIME NULL, end_time DATETIME NULL)',
  mcbans_jaoafa: 'CREATE TABLE mcbans_jaoafa (uuid VARCHAR(64), banid INT, type VARCHAR(8), reason VARCHAR(255), banned_by VARCHAR(32) NULL, created_at TIMESTAMP NULL)',
} as const;

export type OriginalTable = keyof typeof ORIGINAL_TABLES | keyof typeof PLAYERS_SITE_TABLES;

const LAYOUTS: Record<OriginalTable, string> = { ...ORIGINAL_TABLES, ...PLAYERS_SITE_TABLES };

/** A new source database with the given tables (by default those of the cities and logins import). */
export async function createOriginalSource(tables: readonly OriginalTable[] = Object.keys(ORIGINAL_TABLES) as Array<keyof typeof ORIGINAL_TABLES>): Promise<OriginalSource> {
  const name = `original_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const connection = await createConnection({ uri: MYSQL_ADMIN_URL, multipleStatements: true });
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await connection.query(`USE \`${name}\``);
  // The original's dates are JST wall clock; invalid dates exist in old rows.
  await connection.query("SET time_zone = '+09:00', sql_mode = 'ALLOW_INVALID_DATES'");
  for (const table of tables) {
    await connection.query(LAYOUTS[table]);
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
