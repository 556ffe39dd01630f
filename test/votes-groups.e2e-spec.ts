import { AppConfig } from '../src/config/app-config';
import { UnitOfWork } from '../src/database/unit-of-work';
import { PlayerGroupsImport, type ImportedGroupRow } from '../src/player-groups/player-groups.import';
import type { CurrentGroup } from '../src/player-groups/group-choice';
import { PlayerGroupsReader } from '../src/player-groups/player-groups.reader';
import { PlayersRepository } from '../src/players/players.repository';
import { chatColourRank, titleText } from '../src/votes/vote-rewards';
import { type ImportedLoginTextRow, type ImportedVoteTotalRow, VotesImport } from '../src/votes/votes.import';
import { type SiteVotes, VotesReader } from '../src/votes/votes.reader';
import { expectError, HttpResult, newPlayer, TestApp } from './support/test-app';

describe('votes, login texts and permission groups (e2e)', () => {
  let app: TestApp;
  let operatorKey: string;
  const asServer = { headers: {} as Record<string, string> };
  let seq = 0;
  const nextId = (): string => `e2e-${Date.now()}-${(seq += 1)}`;

  const postVotes = (votes: unknown[]): Promise<HttpResult> => app.post('/game-server/votes', { votes }, asServer);
  const postLoginTexts = (loginTexts: unknown[]): Promise<HttpResult> => app.post('/game-server/login-texts', { loginTexts }, asServer);
  const postGroupChanges = (groupChanges: unknown[]): Promise<HttpResult> => app.post('/game-server/group-changes', { groupChanges }, asServer);
  const vote = (uuid: string, site: string, votedAt = '2026-11-01T00:00:00Z', id = nextId()): Record<string, string> => ({ id, uuid, site, votedAt });

  const votesReader = (): VotesReader => app.app.get(VotesReader);
  /** The group as the sites read it: the report, beside the player's row as the caller reads it. */
  const currentGroup = (uuid: string): Promise<CurrentGroup> => app.app.get(PlayerGroupsReader).current(uuid, app.app.get(PlayersRepository).getByUuid(uuid));
  const inTransaction = <T>(work: (tx: Parameters<Parameters<UnitOfWork['transaction']>[0]>[0]) => Promise<T>): Promise<T> => app.app.get(UnitOfWork).transaction(work);
  const importTotals = (rows: ImportedVoteTotalRow[]): Promise<{ accepted: number; skipped: number }> => inTransaction((tx) => app.app.get(VotesImport).importVoteTotalsIn(tx, rows));
  const importTexts = (rows: ImportedLoginTextRow[]): Promise<{ accepted: number; skipped: number }> => inTransaction((tx) => app.app.get(VotesImport).importLoginTextsIn(tx, rows));
  const importGroups = (rows: ImportedGroupRow[]): Promise<{ accepted: number; skipped: number }> => inTransaction((tx) => app.app.get(PlayerGroupsImport).importGroupsIn(tx, rows));
  const playersAbove = async (site: string, count: number): Promise<number> => {
    const [row] = await app.dataSource.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM vote_totals WHERE site = ? AND vote_count > ?', [site, count]);
    return Number(row.n);
  };

  beforeAll(async () => {
    app = await TestApp.start();
    asServer.headers = { 'x-api-key': await app.createApiKey(['game-server']) };
    operatorKey = await app.createApiKey(['operator']);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('credentials', () => {
    const player = newPlayer();
    const routes: Array<[string, unknown]> = [
      ['/game-server/votes', { votes: [{ id: 'a', uuid: player.uuid, site: 'minecraft.jp', votedAt: '2026-01-01T00:00:00Z' }] }],
      ['/game-server/login-texts', { loginTexts: [{ id: 'a', uuid: player.uuid, text: 'x', at: '2026-01-01T00:00:00Z' }] }],
      ['/game-server/group-changes', { groupChanges: [{ id: 'a', uuid: player.uuid, group: 'admin', at: '2026-01-01T00:00:00Z' }] }],
    ];

    it.each(routes)('POST %s answers 401 without a key and 403 with an operator-only key, storing nothing', async (path, body) => {
      expectError(await app.post(path, body), 401, 'unauthorized');
      expectError(await app.post(path, body, { headers: { 'x-api-key': operatorKey } }), 403, 'forbidden');
      expect(await app.dataSource.query('SELECT uuid FROM players WHERE uuid = ?', [player.uuid])).toEqual([]);
    });
  });

  describe('POST /game-server/votes', () => {
    it('counts each vote once per site, skips re-sent ids, and makes an unknown player known', async () => {
      const player = newPlayer();
      const batch = [vote(player.uuid, 'minecraft.jp'), vote(player.uuid.toUpperCase(), 'minecraft.jp', '2026-11-02T00:00:00+09:00'), vote(player.uuid, 'monocraft.net')];
      const first = await postVotes(batch);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 3, skipped: 0 });
      expect((await postVotes(batch)).body).toMatchObject({ accepted: 0, skipped: 3 });
      expect((await postVotes([batch[0], vote(player.uuid, 'MINECRAFT.JP'), batch[0]])).body).toMatchObject({ accepted: 1, skipped: 2 });

      const summary = await votesReader().summary(player.uuid);
      expect(summary).toMatchObject({ first: { count: 3 }, second: { count: 1 }, loginText: null });
      expect(summary.first.rank).toBe((await playersAbove('minecraft.jp', 3)) + 1);
      expect(await app.dataSource.query('SELECT uuid, mcid, first_login AS firstLogin FROM players WHERE uuid = ?', [player.uuid])).toEqual([{ uuid: player.uuid, mcid: null, firstLogin: null }]);
    });

    it('refuses a site outside VOTE_SITES, naming the element, and stores nothing of the batch', async () => {
      const player = newPlayer();
      const result = expectError(await postVotes([vote(player.uuid, 'minecraft.jp'), vote(player.uuid, 'example.com')]), 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: 'votes.1.site' })]);
      expect(await votesReader().summary(player.uuid)).toMatchObject({ first: { count: 0 }, second: { count: 0 } });
    });

    it.each([
      ['a bad uuid', { uuid: 'nope' }, 'votes.0.uuid'],
      ['an id with a space', { id: 'a b' }, 'votes.0.id'],
      ['an id of 65 characters', { id: 'x'.repeat(65) }, 'votes.0.id'],
      ['an empty id', { id: '' }, 'votes.0.id'],
      ['a time without a zone', { votedAt: '2026-01-01T00:00:00' }, 'votes.0.votedAt'],
      ['no site', { site: undefined }, 'votes.0.site'],
    ])('refuses %s', async (_label, change, field) => {
      const result = expectError(await postVotes([{ ...vote(newPlayer().uuid, 'minecraft.jp'), ...change }]), 400, 'invalid_request');
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('takes 1 to 1000 votes', async () => {
      expectError(await postVotes([]), 400, 'invalid_request');
      const player = newPlayer();
      const full = Array.from({ length: 1000 }, () => vote(player.uuid, 'monocraft.net'));
      expect((await postVotes(full)).body).toMatchObject({ accepted: 1000, skipped: 0 });
      expectError(await postVotes([...full, vote(player.uuid, 'monocraft.net')]), 400, 'invalid_request');
      expect((await votesReader().summary(player.uuid)).second).toMatchObject({ count: 1000 });
    });

    it('counts concurrent re-sends of one batch once', async () => {
      const player = newPlayer();
      const batch = Array.from({ length: 20 }, () => vote(player.uuid, 'minecraft.jp'));
      const results = await Promise.all(Array.from({ length: 6 }, () => postVotes(batch)));
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(results.reduce((sum, result) => sum + Number(result.body.accepted), 0)).toBe(20);
      expect((await votesReader().summary(player.uuid)).first.count).toBe(20);
    });
  });

  describe('concurrent batches', () => {
    it('keep totals and count levels exact when batches overlap in players and ids', async () => {
      const players = [newPlayer(), newPlayer(), newPlayer()];
      const shared = players.map((player) => vote(player.uuid, 'monocraft.net'));
      const batches = Array.from({ length: 6 }, (_, index) => [
        ...shared,
        ...players.flatMap((player) => Array.from({ length: index + 1 }, () => vote(player.uuid, index % 2 === 0 ? 'monocraft.net' : 'minecraft.jp'))),
      ]);
      const results = await Promise.all(batches.map((batch) => postVotes(batch)));
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // Shared votes count once; batch i adds i + 1 votes per player on its site.
      expect(results.reduce((sum, result) => sum + Number(result.body.accepted), 0)).toBe(3 + 3 * 21);
      for (const player of players) {
        expect(await votesReader().summary(player.uuid)).toMatchObject({ first: { count: 2 + 4 + 6 }, second: { count: 1 + 1 + 3 + 5 } });
      }
    });
  });

  describe('VotesReader.summary', () => {
    it('ranks by count per site, ties sharing a rank', async () => {
      const [a, b, c, d] = [newPlayer(), newPlayer(), newPlayer(), newPlayer()];
      // Counts far above any other test's, through the import, then votes on top.
      const totals: ImportedVoteTotalRow[] = [
        { sourceId: 'a', uuid: a.uuid, site: 'first', count: 900_002, lastVotedAt: null },
        { sourceId: 'b', uuid: b.uuid, site: 'first', count: 900_002, lastVotedAt: null },
        { sourceId: 'c', uuid: c.uuid, site: 'first', count: 900_001, lastVotedAt: null },
        { sourceId: 'd', uuid: d.uuid, site: 'first', count: 900_000, lastVotedAt: null },
      ];
      expect(await importTotals(totals)).toEqual({ accepted: 4, skipped: 0 });
      const ranksNow = (): Promise<SiteVotes[]> => Promise.all([a, b, c, d].map(async (player) => (await votesReader().summary(player.uuid)).first));
      // Read first, so that the count levels are cached: the votes must make the next read see d on top.
      expect(await ranksNow()).toEqual([
        { count: 900_002, rank: 1 },
        { count: 900_002, rank: 1 },
        { count: 900_001, rank: 3 },
        { count: 900_000, rank: 4 },
      ]);
      expect((await postVotes([vote(d.uuid, 'minecraft.jp'), vote(d.uuid, 'minecraft.jp'), vote(d.uuid, 'minecraft.jp')])).body).toMatchObject({ accepted: 3 });
      const ranks = await ranksNow();
      expect(ranks).toEqual([
        { count: 900_002, rank: 2 },
        { count: 900_002, rank: 2 },
        { count: 900_001, rank: 4 },
        { count: 900_003, rank: 1 },
      ]);
    });

    it('gives a player with no data count 0 and the rank every zero-vote player shares', async () => {
      const nobody = newPlayer();
      const summary = await votesReader().summary(nobody.uuid);
      expect(summary).toEqual({
        first: { count: 0, rank: (await playersAbove('minecraft.jp', 0)) + 1 },
        second: { count: 0, rank: (await playersAbove('monocraft.net', 0)) + 1 },
        loginText: null,
      });
      expect(summary.first.rank).toBeGreaterThan(4);
    });

    it('keeps the count levels equal to the totals', async () => {
      const levels = await app.dataSource.query<Array<{ site: string; voteCount: number | string; players: number | string }>>(
        'SELECT site, vote_count AS voteCount, players FROM vote_count_players ORDER BY site, vote_count',
      );
      const expected = await app.dataSource.query<Array<{ site: string; voteCount: number | string; players: number | string }>>(
        'SELECT site, vote_count AS voteCount, COUNT(*) AS players FROM vote_totals WHERE vote_count > 0 GROUP BY site, vote_count ORDER BY site, vote_count',
      );
      const plain = (rows: typeof levels): string[] => rows.map((row) => `${row.site}|${Number(row.voteCount)}|${Number(row.players)}`);
      expect(plain(levels)).toEqual(plain(expected));
      expect(levels.length).toBeGreaterThan(3);
    });
  });

  describe('VotesImport', () => {
    it('replaces the imported part on a rerun and keeps the recorded votes on top', async () => {
      const player = newPlayer();
      const row: ImportedVoteTotalRow = { sourceId: player.uuid, uuid: player.uuid.toUpperCase(), site: 'second', count: 10, lastVotedAt: new Date('2022-01-01T00:00:00Z') };
      expect(await importTotals([row])).toEqual({ accepted: 1, skipped: 0 });
      await postVotes([vote(player.uuid, 'monocraft.net'), vote(player.uuid, 'monocraft.net')]);
      expect((await votesReader().summary(player.uuid)).second.count).toBe(12);
      expect(await importTotals([row])).toEqual({ accepted: 0, skipped: 1 });
      expect((await votesReader().summary(player.uuid)).second.count).toBe(12);
      expect(await importTotals([{ ...row, count: 15 }])).toEqual({ accepted: 1, skipped: 0 });
      expect(await votesReader().summary(player.uuid)).toMatchObject({ first: { count: 0 }, second: { count: 17 } });
      expect(chatColourRank(17)).toBe(2);
    });
  });

  describe('login texts', () => {
    it('keeps the latest text per player; null removes it; the import never replaces a reported one', async () => {
      const player = newPlayer();
      const result = await postLoginTexts([
        { id: nextId(), uuid: player.uuid, text: ' Builder ', at: '2026-01-02T00:00:00Z' },
        { id: nextId(), uuid: player.uuid, text: 'Older', at: '2026-01-01T00:00:00Z' },
      ]);
      expect(result.body).toMatchObject({ accepted: 2, skipped: 0 });
      expect((await votesReader().summary(player.uuid)).loginText).toBe('Builder');

      expect(await importTexts([{ sourceId: '1', uuid: player.uuid, text: 'Imported' }])).toEqual({ accepted: 0, skipped: 1 });
      expect((await votesReader().summary(player.uuid)).loginText).toBe('Builder');

      const removal = { id: nextId(), uuid: player.uuid, text: null, at: '2026-01-03T00:00:00Z' };
      expect((await postLoginTexts([removal])).body).toMatchObject({ accepted: 1 });
      expect((await postLoginTexts([removal])).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect((await votesReader().summary(player.uuid)).loginText).toBeNull();
    });

    it('imports a text, replaced by a rerun and by any report', async () => {
      const player = newPlayer();
      expect(await importTexts([{ sourceId: '1', uuid: player.uuid, text: 'First' }])).toEqual({ accepted: 1, skipped: 0 });
      expect(await importTexts([{ sourceId: '1', uuid: player.uuid, text: 'First' }])).toEqual({ accepted: 0, skipped: 1 });
      expect(await importTexts([{ sourceId: '1', uuid: player.uuid, text: 'Second' }])).toEqual({ accepted: 1, skipped: 0 });
      expect((await votesReader().summary(player.uuid)).loginText).toBe('Second');
      await postLoginTexts([{ id: nextId(), uuid: player.uuid, text: 'Reported', at: '2000-01-01T00:00:00Z' }]);
      expect((await votesReader().summary(player.uuid)).loginText).toBe('Reported');
    });

    it('feeds the join-message title with the configured words', async () => {
      const player = newPlayer();
      await importTotals([{ sourceId: 'x', uuid: player.uuid, site: 'first', count: 28, lastVotedAt: null }]);
      await postLoginTexts([{ id: nextId(), uuid: player.uuid, text: 'Builder', at: '2026-01-01T00:00:00Z' }]);
      const summary = await votesReader().summary(player.uuid);
      expect(titleText(summary.first.count, app.app.get(AppConfig).rankTitleWords, summary.loginText)).toBe('the New Generation - Super Builder VIP');
    });

    it('refuses a text over 255 characters or a missing one, naming the element', async () => {
      const player = newPlayer();
      const long = expectError(await postLoginTexts([{ id: nextId(), uuid: player.uuid, text: 'x'.repeat(256), at: '2026-01-01T00:00:00Z' }]), 400, 'invalid_request');
      expect(long.body.details).toEqual([expect.objectContaining({ field: 'loginTexts.0.text' })]);
      const missing = expectError(await postLoginTexts([{ id: nextId(), uuid: player.uuid, at: '2026-01-01T00:00:00Z' }]), 400, 'invalid_request');
      expect(missing.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'loginTexts.0.text' })]));
    });
  });

  describe('permission groups', () => {
    const login = (player: { uuid: string; mcid: string }, loggedInAt: string, permission?: string): Promise<HttpResult> =>
      app.post('/game-server/logins', { logins: [{ ...player, loggedInAt, ...(permission ? { permission } : {}) }] }, asServer);

    it('answers default for a player with no data and for one never seen', async () => {
      const player = newPlayer();
      await login(player, '2026-01-01T00:00:00Z');
      expect(await currentGroup(player.uuid)).toEqual({ group: 'default', reportedAt: null, expiresAt: null });
      expect(await currentGroup(newPlayer().uuid)).toEqual({ group: 'default', reportedAt: null, expiresAt: null });
    });

    it('takes the latest report, with its end, until a newer login carries another group', async () => {
      const player = newPlayer();
      await login(player, '2026-01-01T00:00:00Z', 'Default');
      const report = { id: nextId(), uuid: player.uuid, group: 'Verified', expiresAt: '2026-04-01T00:00:00+09:00', at: '2026-01-02T00:00:00Z' };
      expect((await postGroupChanges([report, { id: nextId(), uuid: player.uuid, group: 'admin', at: '2025-12-01T00:00:00Z' }])).body).toMatchObject({ accepted: 2, skipped: 0 });
      expect((await postGroupChanges([report])).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect(await currentGroup(player.uuid)).toEqual({ group: 'verified', reportedAt: new Date('2026-01-02T00:00:00Z'), expiresAt: new Date('2026-03-31T15:00:00Z') });

      await login(player, '2026-01-05T00:00:00Z', 'VERIFIED');
      expect(await currentGroup(player.uuid)).toEqual({ group: 'verified', reportedAt: new Date('2026-01-05T00:00:00Z'), expiresAt: new Date('2026-03-31T15:00:00Z') });
      await login(player, '2026-01-06T00:00:00Z', 'Regular');
      expect(await currentGroup(player.uuid)).toEqual({ group: 'regular', reportedAt: new Date('2026-01-06T00:00:00Z'), expiresAt: null });
      expect((await postGroupChanges([{ id: nextId(), uuid: player.uuid, group: 'moderator', expiresAt: null, at: '2026-01-07T00:00:00Z' }])).body).toMatchObject({ accepted: 1 });
      expect(await currentGroup(player.uuid)).toEqual({ group: 'moderator', reportedAt: new Date('2026-01-07T00:00:00Z'), expiresAt: null });
    });

    it('imports groups idempotently and never over a reported one', async () => {
      const [imported, reported] = [newPlayer(), newPlayer()];
      await postGroupChanges([{ id: nextId(), uuid: reported.uuid, group: 'admin', at: '2020-01-01T00:00:00Z' }]);
      const rows: ImportedGroupRow[] = [
        { sourceId: '1', uuid: imported.uuid, group: 'Verified', expiresAt: new Date('2026-05-01T00:00:00Z'), at: new Date('2026-02-01T00:00:00Z') },
        { sourceId: '2', uuid: reported.uuid, group: 'Default', expiresAt: null, at: new Date('2026-02-01T00:00:00Z') },
      ];
      expect(await importGroups(rows)).toEqual({ accepted: 1, skipped: 1 });
      expect(await importGroups(rows)).toEqual({ accepted: 0, skipped: 2 });
      expect(await currentGroup(imported.uuid)).toEqual({ group: 'verified', reportedAt: new Date('2026-02-01T00:00:00Z'), expiresAt: new Date('2026-05-01T00:00:00Z') });
      expect((await currentGroup(reported.uuid)).group).toBe('admin');
    });

    it.each([
      ['a group with a space', { group: 'a b' }, 'groupChanges.0.group'],
      ['a bad end', { expiresAt: 'soon' }, 'groupChanges.0.expiresAt'],
      ['no time', { at: undefined }, 'groupChanges.0.at'],
    ])('refuses %s', async (_label, change, field) => {
      const player = newPlayer();
      const result = expectError(await postGroupChanges([{ id: nextId(), uuid: player.uuid, group: 'admin', at: '2026-01-01T00:00:00Z', ...change }]), 400, 'invalid_request');
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(await currentGroup(player.uuid)).toEqual({ group: 'default', reportedAt: null, expiresAt: null });
    });
  });
});
