import fc from 'fast-check';
import { DumpRefused, DumpStatement, readMysqlDump } from './mysql-dump';

/** A dump shaped like mariadb-dump 10.11's output for this service (header, one table, rows, trailer). */
const HEADER = `/*M!999999\\- enable the sandbox mode */ 
-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)
--
-- Host: 127.0.0.1    Database: community
-- ------------------------------------------------------
-- Server version	10.11.19-MariaDB-0+deb12u1

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;
`;

const PLAYERS = `
--
-- Table structure for table \`players\`
--

DROP TABLE IF EXISTS \`players\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`players\` (
  \`uuid\` varchar(36) NOT NULL,
  \`mcid\` varchar(16) NOT NULL,
  \`hidden\` tinyint(1) NOT NULL DEFAULT 0,
  \`note\` varchar(64) DEFAULT 'a; -- b /* c',
  \`first_login\` datetime(3) NOT NULL,
  PRIMARY KEY (\`uuid\`),
  KEY \`IDX_players_mcid\` (\`mcid\`),
  CONSTRAINT \`FK_1\` FOREIGN KEY (\`mcid\`) REFERENCES \`names\` (\`mcid\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`players\`
--

LOCK TABLES \`players\` WRITE;
/*!40000 ALTER TABLE \`players\` DISABLE KEYS */;
INSERT INTO \`players\` VALUES
('069a79f4-44e9-4726-a5be-fca90e38aaf5','No;tch\\'\\\\x',0,'it''s -- not /* a comment','2026-11-26 19:47:31.000'),
('169a79f4-44e9-4726-a5be-fca90e38aaf5','Jeb',-1,NULL,'2026-11-26 19:47:31.000');
INSERT INTO \`players\` VALUES ('269a79f4-44e9-4726-a5be-fca90e38aaf5',_binary 'x\\0y',1.5e3,0x00FF,'2026-11-26 19:47:31.000');
/*!40000 ALTER TABLE \`players\` ENABLE KEYS */;
UNLOCK TABLES;
`;

const TRAILER = `
--
-- Dumping routines for database 'community'
--
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

-- Dump completed on 2026-11-26 19:47:31
`;

const DUMP = HEADER + PLAYERS + TRAILER;

async function read(text: string | Buffer, chunkSize = 4096): Promise<DumpStatement[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let index = 0; index < bytes.length; index += chunkSize) {
      await Promise.resolve();
      yield bytes.subarray(index, index + chunkSize);
    }
  }
  const statements: DumpStatement[] = [];
  for await (const statement of readMysqlDump(chunks())) {
    statements.push(statement);
  }
  return statements;
}

async function refusal(text: string): Promise<string> {
  try {
    await read(text);
  } catch (error) {
    if (error instanceof DumpRefused) {
      return error.message;
    }
    throw error;
  }
  throw new Error('the dump was not refused');
}

/** The dump with `inserted` placed among the players' statements. */
const withStatement = (inserted: string): string => HEADER + PLAYERS.replace('UNLOCK TABLES;', `${inserted}\nUNLOCK TABLES;`) + TRAILER;

describe('readMysqlDump', () => {
  it("yields a dump's statements by kind, with the versioned comments opened and comments dropped", async () => {
    const statements = await read(DUMP);
    expect(statements.map((statement) => [statement.kind, statement.table])).toEqual([
      ...Array.from({ length: 8 }, () => ['session', null]),
      ['drop-table', 'players'],
      ['session', null],
      ['session', null],
      ['create-table', 'players'],
      ['session', null],
      ['session', 'players'],
      ['session', 'players'],
      ['insert', 'players'],
      ['insert', 'players'],
      ['session', 'players'],
      ['session', null],
      ...Array.from({ length: 4 }, () => ['session', null]),
    ]);
    expect(statements[1].sql).toBe('SET NAMES utf8mb4');
    const create = statements.find((statement) => statement.kind === 'create-table')!;
    expect(create.sql).toContain("DEFAULT 'a; -- b /* c'");
    expect(create.line).toBe(DUMP.slice(0, DUMP.indexOf('CREATE TABLE')).split('\n').length);
    const insert = statements.find((statement) => statement.kind === 'insert')!;
    expect(insert.sql).toContain("'No;tch\\'\\\\x'");
    expect(insert.sql).toContain("'it''s -- not /* a comment'");
  });

  it('reads the same statements however the file is cut into chunks', async () => {
    const whole = await read(DUMP);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), async (size) => {
        expect(await read(DUMP, size)).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a multi-byte character split across chunks', async () => {
    const text = withStatement("INSERT INTO `players` VALUES ('x','都市の名前',0,NULL,'2026-11-26 19:47:31.000');");
    for (const size of [1, 2, 3, 5]) {
      const insert = (await read(text, size)).filter((statement) => statement.kind === 'insert').pop()!;
      expect(insert.sql).toContain('都市の名前');
    }
  });

  it.each([
    ['a shell command', '\\! id > /tmp/x', /client command \("\\!"\)/],
    ['a shell command after a statement', 'UNLOCK TABLES; \\! id', /client command/],
    ['system', 'system id > /tmp/x;', /"SYSTEM ID…"|"SYSTEM/],
    ['source', 'source /etc/passwd;', /"SOURCE/],
    ['a delimiter change (triggers, routines)', 'DELIMITER ;;', /"DELIMITER/],
    ['USE', 'USE mysql;', /names a database/],
    ['CREATE DATABASE', 'CREATE DATABASE other;', /names a database/],
    ['DROP DATABASE', 'DROP DATABASE community;', /DROP statement other than/],
    ['DROP of two tables', 'DROP TABLE IF EXISTS `a`, `b`;', /DROP statement other than/],
    ['DROP without IF EXISTS of another database', 'DROP TABLE IF EXISTS `mysql`.`user`;', /DROP statement other than|not one this service uses/],
    ['an insert into another database', "INSERT INTO `mysql`.`user` VALUES ('x');", /not "INSERT INTO/],
    ['an insert of a function call', "INSERT INTO `players` VALUES (LOAD_FILE('/etc/passwd'));", /not a literal \(near "LOAD_FILE/],
    ['an insert of a sub-query', 'INSERT INTO `players` VALUES ((SELECT 1));', /not a literal/],
    ['an insert ... select', 'INSERT INTO `players` SELECT * FROM `mysql`.`user`;', /not "INSERT INTO/],
    ['an upsert', "INSERT INTO `players` VALUES ('a') ON DUPLICATE KEY UPDATE mcid = 'x';", /unexpected text after the rows/],
    ['a table in another engine', 'CREATE TABLE `t` (`a` int(11)) ENGINE=CONNECT TABLE_TYPE=DOS FILE_NAME=\'/etc/passwd\';', /CONNECT engine/],
    ['a table referencing another database', 'CREATE TABLE `t` (`a` int(11), FOREIGN KEY (`a`) REFERENCES `other`.`t` (`a`)) ENGINE=InnoDB;', /names another database/],
    ['a table made from a query', 'CREATE TABLE `t` (`a` int(11)) AS SELECT 1;', /uses (AS|SELECT)/],
    ['a table with an expression', "CREATE TABLE `t` (`a` text DEFAULT (LOAD_FILE('/etc/passwd'))) ENGINE=InnoDB;", /calls (DEFAULT|LOAD_FILE)\(…\)/],
    ['a table in a directory', "CREATE TABLE `t` (`a` int(11)) ENGINE=InnoDB DATA DIRECTORY='/tmp';", /uses DIRECTORY/],
    ['a view', '/*!50001 CREATE VIEW `v` AS SELECT 1 */;', /"CREATE VIEW…"/],
    ['a trigger', 'CREATE TRIGGER t BEFORE INSERT ON players FOR EACH ROW SET @x = 1;', /"CREATE TRIGGER…"/],
    ['a global setting', 'SET GLOBAL general_log = 1;', /SET statement this restore does not allow|only session settings/],
    ['a global variable', 'SET @@GLOBAL.general_log = 1;', /SET statement this restore does not allow|only session settings/],
    ['a setting outside the list', "SET sql_log_bin = 0;", /only session settings/],
    ['a grant', "GRANT ALL ON *.* TO 'x'@'%';", /"GRANT ALL…"/],
    ['a statement hidden in a versioned comment', '/*!40101 DROP DATABASE community */;', /DROP statement other than/],
  ])('refuses %s, naming it and its line', async (_name, statement, message) => {
    const why = await refusal(withStatement(statement));
    expect(why).toMatch(/^line \d+: /);
    expect(why).toMatch(message);
  });

  it('refuses a file cut short anywhere, whether inside a statement or between two', async () => {
    for (const fraction of [0.1, 0.4, 0.5, 0.7, 0.95]) {
      expect(await refusal(DUMP.slice(0, Math.floor(DUMP.length * fraction)))).toMatch(/cut short/);
    }
    expect(await refusal(DUMP.slice(0, DUMP.indexOf('-- Dump completed')))).toMatch(/"-- Dump completed" line/);
    expect(await refusal(`${DUMP}INSERT INTO \`players\` VALUES ('x','y',0,NULL,'2026-11-26 19:47:31.000');\n`)).toMatch(/"-- Dump completed" line/);
  });

  it('refuses what is not a dump: another text, or bytes that are not UTF-8', async () => {
    expect(await refusal('CREATE TABLE `t` (`a` int(11));\n-- Dump completed\n')).toMatch(/not a dump made by mariadb-dump/);
    const invalid = Buffer.concat([Buffer.from(HEADER), Buffer.from([0xff, 0xfe]), Buffer.from(TRAILER)]);
    await expect(read(invalid)).rejects.toThrow(/not UTF-8/);
  });
});
