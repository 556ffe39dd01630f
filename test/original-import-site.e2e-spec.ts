import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { ChatAccountsReader } from '../src/chat-accounts/chat-accounts.reader';
import { MiniGamesReader } from '../src/mini-games/mini-games.reader';
import { PlayTimeReader } from '../src/play-time/play-time.reader';
import { PlayerGroupsReader } from '../src/player-groups/player-groups.reader';
import { PlayersRepository } from '../src/players/players.repository';
import { VotesReader } from '../src/votes/votes.reader';
import { PunishmentsReader } from '../src/punishments/punishments.reader';
import type { ImportReportJson as Report, TableCounts as Counts } from '../src/original-import/import-report';
import { createOriginalSource, OriginalSource, OriginalTable } from './support/original-source';
import { runCli } from './support/run-cli';
import { newPlayer, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/** A table's counts: every row read (= the source's COUNT(*)), skipped = excluded by a rule + problems. */
const counts = (read: number, imported: number, unchanged: number, excluded: number, problems: number): Counts => ({
  sourceRows: read,
  read,
  imported,
  unchanged,
  skipped: excluded + problems,
  excluded,
  problems,
});

const CUTOFF = '2018-03-20T00:00:00+09:00';
const jst = (wallClock: string): Date => new Date(`${wallClock.replace(' ', 'T')}+09:00`);

const SITE_TABLES: OriginalTable[] = [
  'daily-onlinetime',
  'onlinetime',
  'afktime',
  'vote',
  'vote_monocraft',
  'permissions',
  'subaccount',
  'socials',
  'jail',
  'eban',
  'chatban',
  'chatjail',
  'periodmatch2',
  'mcbans_jaoafa',
];

/**
 * The players site's source tables (original-sites.md section 4) through the real CLI into the
 * features, checked through their readers: every row accounted for by table and id, a rerun
 * changes nothing, tables without ids identified by key columns or a hash.
 */
describe('import:original: the players site tables (e2e: a MariaDB source, the real CLI, the features readers)', () => {
  let source: OriginalSource;
  let app: TestApp;
  const mariadbTarget = process.env.TEST_DATABASE === 'mysql';
  const alice = newPlayer();
  const bob = newPlayer();
  /** Never logged in: known here only through the imported records. */
  const erin = newPlayer();
  /** Never logged in, no punishment: known here only through a ban-list record the community issued. */
  const frank = newPlayer();
  const chatAlice = '200000000000000001';
  const chatAliceSub = '200000000000000002';
  const chatBob = '200000000000000003';

  const cli = async (...args: string[]): Promise<Report> => {
    const run = await runCli(['import:original', ...args, '--json'], { DATABASE_URL: app.database.url, DATA_CUTOFF: CUTOFF, NODE_ENV: 'test', LOG_LEVEL: 'error' });
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Report;
  };
  const insert = (table: string, rows: Array<Record<string, unknown>>): Promise<void> => {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    return source.query(
      `INSERT INTO \`${table}\` (${columns.join(', ')}) VALUES ${rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}`,
      rows.flatMap((row) => columns.map((column) => row[column] ?? null)),
    );
  };

  async function fillSource(): Promise<void> {
    // No id column: identified by banid. 101 recorded twice; 102 and 103 without a time (the mirror knows 102).
    await insert('mcbans_jaoafa', [
      { uuid: bob.uuid, banid: 101, type: 'global', reason: 'hacking', banned_by: 'OpName', created_at: '2021-06-01 09:00:00' },
      { uuid: alice.uuid, banid: 101, type: 'local', reason: 'copy', banned_by: 'OpName', created_at: '2021-06-02 09:00:00' },
      { uuid: bob.uuid.replace(/-/g, ''), banid: 102, type: 'l', reason: 'grief', banned_by: null, created_at: null },
      { uuid: erin.uuid, banid: 103, type: 'local', reason: 'x', banned_by: null, created_at: null },
      { uuid: erin.uuid, banid: null, type: 'local', reason: 'no id', banned_by: null, created_at: null },
      { uuid: erin.uuid, banid: 104, type: 'weird', reason: 'y', banned_by: null, created_at: null },
      { uuid: frank.uuid, banid: 105, type: 'global', reason: 'xray', banned_by: 'OpName', created_at: '2021-06-03 09:00:00' },
    ]);
    await insert('login', [
      { player: 'AliceName', uuid: alice.uuid, date: '2020-01-01 00:00:00', login_success: 1, permission: 'Default' },
      { player: 'BobName', uuid: bob.uuid, date: '2020-01-02 00:00:00', login_success: 1, permission: 'Default' },
    ]);
    await insert('discordlink', [
      { player: 'AliceName', uuid: alice.uuid, name: 'alice#chat', disid: chatAlice, discriminator: '0420', disabled: 0 },
      { player: 'BobName', uuid: bob.uuid, name: 'bob', disid: chatBob, discriminator: '0', disabled: 1 },
    ]);
    // No id column and no key: each session identified by a hash of the row; a session recorded twice is two rows.
    // Sessions end at created_at (JST): alice's first crosses midnight in Tokyo.
    await insert('daily-onlinetime', [
      { uuid: alice.uuid, player: 'AliceName', onlinetime: 3600, created_at: '2026-11-20 00:30:00' },
      { uuid: alice.uuid, player: 'AliceName', onlinetime: 600, created_at: '2026-11-21 12:00:00' },
      { uuid: alice.uuid, player: 'AliceName', onlinetime: 600, created_at: '2026-11-21 12:00:00' },
      { uuid: bob.uuid, player: 'BobName', onlinetime: -5, created_at: '2026-11-21 12:00:00' },
      { uuid: 'not-a-uuid', player: 'Nobody', onlinetime: 60, created_at: '2026-11-21 12:00:00' },
    ]);
    // One total per player (no key: identified by uuid); bob recorded twice, the newer (updated_at) wins.
    await insert('onlinetime', [
      { player: 'AliceName', uuid: alice.uuid, onlinetime: 7200, updated_at: '2026-11-21 00:00:00' },
      { player: 'BobName', uuid: bob.uuid, onlinetime: 999, updated_at: '2020-01-01 00:00:00' },
      { player: 'BobName', uuid: bob.uuid, onlinetime: 100, updated_at: '2026-11-21 00:00:00' },
      { player: 'ErinName', uuid: erin.uuid, onlinetime: 50, updated_at: '2026-11-21 00:00:00' },
    ]);
    // Two identical accumulations (copies of one hash) count twice; one without a time.
    await insert('afktime', [
      { uuid: alice.uuid, seconds: 30, created_at: '2026-11-01 00:00:00' },
      { uuid: alice.uuid, seconds: 30, created_at: '2026-11-01 00:00:00' },
      { uuid: bob.uuid, seconds: 45, created_at: null },
    ]);
    // The first site with a login text and an epoch time in milliseconds; the second keyed by uuid, counts as text.
    await insert('vote', [
      { player: 'AliceName', uuid: alice.uuid, count: 25, lasttime: 1764000000000, logintext: 'Hello' },
      { player: 'BobName', uuid: bob.uuid, count: 3, lasttime: null, logintext: 'b'.repeat(300) },
    ]);
    await insert('vote_monocraft', [
      { uuid: alice.uuid, player: 'AliceName', count: '170', last: '2026-11-01 00:00:00' },
      { uuid: bob.uuid, player: 'BobName', count: 'lots', last: null },
    ]);
    // alice's older row is superseded by the newer one (highest id); erin never logged in.
    await insert('permissions', [
      { player: 'AliceName', uuid: alice.uuid, permission: 'Default', expire_at: null, updated_at: '2020-01-01 00:00:00' },
      { player: 'AliceName', uuid: alice.uuid, permission: 'Verified', expire_at: '2027-01-01 00:00:00', updated_at: '2026-10-01 00:00:00' },
      { player: 'ErinName', uuid: erin.uuid, permission: 'Admin', expire_at: null, updated_at: '2026-10-01 00:00:00' },
    ]);
    // No id column: identified by disid. One main_disid that is no chat id.
    await insert('subaccount', [
      { disid: chatAliceSub, name: 'alice-alt', discriminator: '1234', main_disid: chatAlice, created_at: '2021-01-01 00:00:00' },
      { disid: '200000000000000009', name: 'broken', discriminator: null, main_disid: 'nobody', created_at: '2021-01-01 00:00:00' },
    ]);
    // No id column, no key: identified by uuid; bob twice (one row per player); an invalid home URL is left out.
    await insert('socials', [
      { uuid: alice.uuid, twitterId: 'alice_tw', githubId: 'https://github.com/alice-gh', homeUrl: 'javascript:alert(1)', created_at: '2021-01-01 00:00:00' },
      { uuid: bob.uuid, twitterId: 'bob_tw', githubId: null, homeUrl: 'https://bob.example/', created_at: '2021-01-01 00:00:00' },
      { uuid: bob.uuid, twitterId: 'bob_zzz_older', githubId: null, homeUrl: null, created_at: '2020-01-01 00:00:00' },
    ]);
    await insert('jail', [
      { player: 'AliceName', uuid: alice.uuid, banned_by: 'OpName', reason: 'griefing', testment: 'sorry', status: 1, created_at: '2021-03-01 12:00:00' },
      { player: 'AliceName', uuid: alice.uuid, banned_by: 'CONSOLE', reason: 'old', testment: null, status: 0, created_at: '2020-03-01 12:00:00', updated_at: '2020-03-02 12:00:00' },
      // More than a MariaDB TEXT holds: a problem on a MariaDB target, imported on SQLite.
      { player: 'BobName', uuid: bob.uuid, banned_by: 'OpName', reason: 'r'.repeat(70_000), testment: null, status: 0, created_at: '2019-03-01 12:00:00' },
    ]);
    await insert('eban', [
      { player: 'ErinName', uuid: erin.uuid, banned_by: 'OpName', reason: 'x', status: 'punishing', created_at: '2021-04-01 00:00:00' },
      { player: 'ErinName', uuid: erin.uuid, banned_by: 'OpName', reason: 'y', status: 'end', created_at: '2021-03-01 00:00:00' },
      { player: 'ErinName', uuid: erin.uuid, banned_by: 'OpName', reason: 'z', status: 'maybe', created_at: '2021-02-01 00:00:00' },
    ]);
    // Both mute tables are one kind; their ids overlap.
    await insert('chatban', [{ player: 'BobName', uuid: bob.uuid, banned_by: 'OpName', reason: 'spam', status: Buffer.from([1]), created_at: '2022-01-01 00:00:00' }]);
    await insert('chatjail', [{ player: 'BobName', uuid: bob.uuid, banned_by: 'OpName', reason: 'old spam', status: 0, created_at: '2019-01-01 00:00:00' }]);
    await insert('periodmatch2', [
      { uuid: alice.uuid, player: 'AliceName', success: 3, failure: 1, match_time: 30, real_match_time: 31, calc_match_time: 30500, start_time: '2021-05-01 10:00:00', end_time: '2021-05-01 10:00:31' },
      { uuid: bob.uuid, player: 'BobName', success: 5, failure: 0, match_time: 30, real_match_time: 30, calc_match_time: 30010, start_time: '2021-05-02 10:00:00', end_time: '2021-05-02 10:00:30' },
      { uuid: alice.uuid, player: 'AliceName', success: 1, failure: 0, match_time: 30, real_match_time: 30, calc_match_time: 30000, start_time: null, end_time: '2021-05-03 10:00:30' },
    ]);
  }

  beforeAll(async () => {
    source = await createOriginalSource(['login', 'cities', 'discordlink', ...SITE_TABLES]);
    await fillSource();
    app = await TestApp.start({ DATA_CUTOFF: CUTOFF });
    // The mirror knows ban 102 (a ban of the community's server it fetched).
    const mirrorTime = mariadbTarget ? new Date('2021-05-05T05:05:05.000Z') : '2021-05-05 05:05:05.000';
    await app.dataSource.query("INSERT INTO banlist_players (uuid, upstream_name, reputation, synced_at) VALUES (?, 'BobName', 10, ?)", [bob.uuid, mirrorTime]);
    await app.dataSource.query(
      "INSERT INTO banlist_bans (ban_id, player_uuid, type, reason, server, banned_by, lost_rep, banned_at, synced_at) VALUES (102, ?, 'local', 'grief', 'jao', NULL, NULL, ?, ?)",
      [bob.uuid, mirrorTime, mirrorTime],
    );
  });

  afterAll(async () => {
    await app?.stop();
    await source?.drop();
  });

  let first: Report;

  it('a dry run reports what the real run does; every table reconciles by table and id', async () => {
    const dry = await cli('--from', source.url, '--dry-run');
    first = await cli('--from', source.url);
    expect(dry.tables).toEqual(first.tables);
    expect(dry.problems).toEqual(first.problems);
    for (const [table, entry] of Object.entries(first.tables)) {
      expect({ table, read: entry.read, parts: entry.imported + entry.unchanged + entry.skipped }).toEqual({ table, read: entry.sourceRows, parts: entry.sourceRows });
      expect(first.problems.filter((problem) => problem.table === table && problem.skipped)).toHaveLength(entry.problems);
    }
    expect(first.tables).toMatchObject({
      discordlink: counts(2, 1, 0, 1, 0),
      'daily-onlinetime': counts(5, 3, 0, 0, 2),
      onlinetime: counts(4, 3, 0, 0, 1),
      afktime: counts(3, 3, 0, 0, 0),
      vote: counts(2, 2, 0, 0, 0),
      vote_monocraft: counts(2, 1, 0, 0, 1),
      permissions: counts(3, 2, 0, 0, 1),
      subaccount: counts(2, 1, 0, 0, 1),
      socials: counts(3, 2, 0, 0, 1),
      jail: mariadbTarget ? counts(3, 2, 0, 0, 1) : counts(3, 3, 0, 0, 0),
      eban: counts(3, 2, 0, 0, 1),
      chatban: counts(1, 1, 0, 0, 0),
      chatjail: counts(1, 1, 0, 0, 0),
      periodmatch2: counts(3, 2, 0, 0, 1),
      mcbans_jaoafa: counts(7, 4, 0, 0, 3),
    });
    const problem = (table: string, id: number | string | null): string[] => first.problems.filter((entry) => entry.table === table && entry.id === id).map((entry) => entry.reason);
    expect(problem('daily-onlinetime', null)).toEqual([expect.stringMatching(/no key columns; each row is identified by a hash of all its columns \(4\)/)]);
    const sessionProblems = first.problems.filter((entry) => entry.table === 'daily-onlinetime' && entry.skipped);
    expect(sessionProblems.map((entry) => [typeof entry.id === 'string' && /^h:[0-9a-f]{40}$/.test(entry.id), entry.reason])).toEqual(
      expect.arrayContaining([
        [true, expect.stringMatching(/onlinetime "-5" is not a whole number/)],
        [true, expect.stringMatching(/uuid "not-a-uuid" is not a uuid/)],
      ]),
    );
    expect(problem('onlinetime', `${bob.uuid}#2`)).toEqual([expect.stringMatching(new RegExp(`row ${bob.uuid} of this table already holds player`))]);
    expect(problem('vote_monocraft', bob.uuid)).toEqual([expect.stringMatching(/count "lots" is not a whole number/)]);
    expect(problem('permissions', 1)).toEqual([expect.stringMatching(/row 2 of this table already holds player/)]);
    expect(problem('subaccount', '200000000000000009')).toEqual([expect.stringMatching(/main_disid "nobody" is not a chat id/)]);
    expect(problem('socials', null)).toEqual([]);
    expect(problem('socials', bob.uuid)).toEqual([]);
    const socials = first.problems.filter((entry) => entry.table === 'socials').map((entry) => [entry.id, entry.skipped, entry.reason]);
    expect(socials).toHaveLength(2);
    expect(socials).toEqual(
      expect.arrayContaining([
        [alice.uuid, false, expect.stringMatching(/homeUrl "javascript:alert\(1\)" is not an http\(s\) URL; left out/)],
        [`${bob.uuid}#2`, true, expect.stringMatching(new RegExp(`already holds player ${bob.uuid}`))],
      ]),
    );
    expect(problem('jail', 3)).toEqual(mariadbTarget ? [expect.stringMatching(/reason is 70000 bytes, over the 65535 a text column holds on MariaDB/)] : []);
    expect(problem('vote', 2)).toEqual([expect.stringMatching(/logintext is longer than 255 characters; imported cut to 255/)]);
    expect(problem('eban', 3)).toEqual([expect.stringMatching(/status "maybe" is neither in force/)]);
    expect(problem('mcbans_jaoafa', '101#2')).toEqual([expect.stringMatching(/banid repeats in the source/), expect.stringMatching(/ban id 101 is recorded here already \(original row 101\)/)]);
    expect(problem('mcbans_jaoafa', '102')).toEqual([expect.stringMatching(/the mirror's time of this ban id is recorded/)]);
    expect(problem('mcbans_jaoafa', '103')).toEqual([expect.stringMatching(/the time of the import is recorded/)]);
    expect(problem('mcbans_jaoafa', 'NULL')).toEqual([expect.stringMatching(/banid NULL is not a ban id/)]);
    expect(problem('mcbans_jaoafa', '104')).toEqual([expect.stringMatching(/type "weird" is neither global nor local/)]);
    expect(problem('periodmatch2', 3)).toEqual([expect.stringMatching(/start_time is missing/)]);
  });

  it('the features show the imported rows through their readers; a player who never logged in is known by the records', async () => {
    const playTime = app.app.get(PlayTimeReader);
    // 3,600 s ending 00:30 JST: 1,800 s on each day; the recorded-twice session counts twice in the heatmap.
    expect(await playTime.dailyOnline(alice.uuid, new Date('2026-11-25T00:00:00Z'))).toEqual([
      { date: '2026-11-19', count: 1800 },
      { date: '2026-11-20', count: 1800 },
      { date: '2026-11-21', count: 1200 },
    ]);
    expect(Object.fromEntries(await playTime.eraTotals(alice.uuid))).toEqual({ jao4: 7200 });
    expect(Object.fromEntries(await playTime.eraTotals(bob.uuid))).toEqual({ jao4: 100 });
    expect(Object.fromEntries(await playTime.eraTotals(erin.uuid))).toEqual({ jao4: 50 });
    expect(await playTime.awaySeconds(alice.uuid)).toBe(60);
    expect(await playTime.awaySeconds(bob.uuid)).toBe(45);
    expect(await playTime.awaySeconds(erin.uuid)).toBe(0);

    const votes = app.app.get(VotesReader);
    expect(await votes.summary(alice.uuid)).toEqual({ first: { count: 25, rank: 1 }, second: { count: 170, rank: 1 }, loginText: 'Hello' });
    expect(await votes.summary(bob.uuid)).toMatchObject({ first: { count: 3, rank: 2 }, second: { count: 0 }, loginText: 'b'.repeat(255) });

    const groups = app.app.get(PlayerGroupsReader);
    const players = app.app.get(PlayersRepository);
    expect(await groups.current(alice.uuid, players.getByUuid(alice.uuid))).toMatchObject({ group: 'verified', expiresAt: jst('2027-01-01 00:00:00') });
    expect(await groups.current(erin.uuid, players.getByUuid(erin.uuid))).toMatchObject({ group: 'admin', expiresAt: null });

    const chat = app.app.get(ChatAccountsReader);
    expect(await chat.forPlayer(alice.uuid, chatAlice)).toMatchObject({
      main: { id: chatAlice, name: 'alice#chat', discriminator: '0420' },
      sub: { id: chatAliceSub, name: 'alice-alt', discriminator: '1234' },
    });
    expect(await chat.profileLinks(alice.uuid)).toEqual({ twitterId: 'alice_tw', githubId: 'alice-gh', homeUrl: null });
    expect(await chat.profileLinks(bob.uuid)).toEqual({ twitterId: 'bob_tw', githubId: null, homeUrl: 'https://bob.example/' });
    expect(await chat.profileLinks(erin.uuid)).toEqual({ twitterId: null, githubId: null, homeUrl: null });

    const punishments = app.app.get(PunishmentsReader);
    const aliceP = await punishments.forPlayer(alice.uuid);
    expect(aliceP.counts).toEqual({ jail: 2, chatjail: 0, eban: 0, vban: 0 });
    expect(aliceP.items.map((item) => [item.kind, item.reason, item.testment, item.active, item.issuedBy, item.issuedAt.toISOString(), item.liftedAt?.toISOString() ?? null])).toEqual([
      ['Jail', 'griefing', 'sorry', true, 'OpName', jst('2021-03-01 12:00:00').toISOString(), null],
      ['Jail', 'old', null, false, 'CONSOLE', jst('2020-03-01 12:00:00').toISOString(), jst('2020-03-02 12:00:00').toISOString()],
    ]);
    const bobP = await punishments.forPlayer(bob.uuid);
    expect(bobP.counts).toEqual({ jail: mariadbTarget ? 0 : 1, chatjail: 2, eban: 0, vban: 0 });
    expect(new Set(bobP.items.filter((item) => item.kind === 'ChatJail').map((item) => item.id)).size).toBe(2);
    expect((await punishments.forPlayer(erin.uuid)).items.map((item) => [item.kind, item.active])).toEqual([
      ['EBan', true],
      ['EBan', false],
    ]);
    expect(await punishments.hasAny(newPlayer().uuid)).toBe(false);

    const bans = await app.dataSource.query<Array<{ banId: number | string; uuid: string; type: string; bannedBy: string | null; bannedAtFrom: string }>>(
      'SELECT ban_id AS banId, player_uuid AS uuid, type, banned_by AS bannedBy, banned_at_from AS bannedAtFrom FROM community_banlist_bans ORDER BY ban_id',
    );
    expect(bans.map((ban) => ({ ...ban, banId: Number(ban.banId) }))).toEqual([
      { banId: 101, uuid: bob.uuid, type: 'global', bannedBy: 'OpName', bannedAtFrom: 'source' },
      { banId: 102, uuid: bob.uuid, type: 'local', bannedBy: null, bannedAtFrom: 'mirror' },
      { banId: 103, uuid: erin.uuid, type: 'local', bannedBy: null, bannedAtFrom: 'import' },
      { banId: 105, uuid: frank.uuid, type: 'global', bannedBy: 'OpName', bannedAtFrom: 'source' },
    ]);
    // Known to both sites through that record alone (the import made the player's bare row).
    expect((await app.get<Record<string, unknown>>(`/v2/users/${frank.uuid}`)).body).toEqual({ mcid: '', uuid: frank.uuid });
    expect((await app.get<{ status: boolean }>(`/v2/bans/recent/${frank.uuid}`)).body.status).toBe(true);

    const games = app.app.get(MiniGamesReader);
    expect((await games.recent(alice.uuid)).map((result) => [result.success, result.failure, result.rank])).toEqual([[3, 1, 2]]);
    expect((await games.recent(bob.uuid)).map((result) => [result.success, result.rank])).toEqual([[5, 1]]);
  });

  it('a second run changes nothing and reports the same problems', async () => {
    const again = await cli('--from', source.url);
    for (const [table, now] of Object.entries(again.tables)) {
      const before = first.tables[table];
      expect({ table, ...now }).toEqual({ table, ...counts(before.read, 0, before.imported + before.unchanged, before.excluded, before.problems) });
    }
    // The same problems, but for the notices about how a ban's time was found: said when it was stored.
    expect(again.problems).toEqual(first.problems.filter((entry) => !(entry.table === 'mcbans_jaoafa' && /time .* is recorded/.test(entry.reason))));
  });

  it('a run cut off in a table without ids (process killed) is completed by the next run: every row once, by its hash', async () => {
    const big = await createOriginalSource(['login', 'cities', 'afktime']);
    const target = await createTestDatabase();
    const players = Array.from({ length: 20 }, () => newPlayer());
    try {
      // 12,000 accumulations over three pages; every tenth row is recorded twice (identical copies).
      const values: string[] = [];
      let total = 0;
      for (let index = 0; values.length < 12_000; index += 1) {
        const row = `('${players[index % players.length].uuid}', ${(index % 50) + 1}, '2026-01-01 00:00:00' + INTERVAL ${index} MINUTE)`;
        values.push(row);
        total += (index % 50) + 1;
        if (index % 10 === 0 && values.length < 12_000) {
          values.push(row);
          total += (index % 50) + 1;
        }
      }
      for (let start = 0; start < values.length; start += 4000) {
        await big.query(`INSERT INTO afktime (uuid, seconds, created_at) VALUES ${values.slice(start, start + 4000).join(', ')}`);
      }
      const env = { ...process.env, DATABASE_URL: target.url, DATA_CUTOFF: CUTOFF, NODE_ENV: 'test', LOG_LEVEL: 'error' };
      const count = await countRows(target.url, 'SELECT COUNT(*) AS n FROM away_records');
      const child: ChildProcess = spawn(process.execPath, [join(__dirname, '..', 'scripts', 'cli.js'), 'import:original', '--from', big.url, '--json'], { env, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let stored = 0;
      for (let attempt = 0; attempt < 4000 && stored === 0; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        stored = await count().catch(() => 0);
      }
      child.kill('SIGKILL');
      await exited;
      const partial = await count();
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(12_000);

      const rerun = await runCli(['import:original', '--from', big.url, '--json'], env);
      expect(rerun.code).toBe(0);
      const report = JSON.parse(rerun.stdout) as Report;
      expect(report.tables.afktime).toEqual(counts(12_000, 12_000 - partial, partial, 0, 0));
      expect(await count()).toBe(12_000);
      // The records and the totals kept with them (in the same transactions) agree with the source.
      expect(await (await countRows(target.url, 'SELECT SUM(seconds) AS n FROM away_records'))()).toBe(total);
      expect(await (await countRows(target.url, 'SELECT SUM(seconds) AS n FROM away_totals'))()).toBe(total);
    } finally {
      await target.drop();
      await big.drop();
    }
  }, 240_000);
});

/** A query answering one number `n`, run on the target through its own driver (SQLite file or MariaDB). */
async function countRows(url: string, sql: string): Promise<() => Promise<number>> {
  if (url.startsWith('sqlite:')) {
    const Database = (await import('better-sqlite3')).default;
    // eslint-disable-next-line @typescript-eslint/require-await -- async, so a missing file rejects instead of throwing
    return async () => {
      const db = new Database(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
      try {
        return Number((db.prepare(sql).get() as { n: number }).n);
      } finally {
        db.close();
      }
    };
  }
  return async () => {
    const connection = await createConnection(url);
    try {
      const [rows] = await connection.query(sql);
      return Number((rows as Array<{ n: number }>)[0].n);
    } finally {
      await connection.end();
    }
  };
}
