import sharp from 'sharp';
import { CommunityBanlistBansRepository } from '../src/community-bans/community-banlist-bans.repository';
import { UnitOfWork } from '../src/database/unit-of-work';
import { EvidenceService } from '../src/evidence/evidence.service';
import type { RecordRef } from '../src/evidence/record-ref';
import { PunishmentsReader } from '../src/punishments/punishments.reader';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { newPlayer, TestApp } from './support/test-app';

type Json = Record<string, unknown>;
type Player = { uuid: string; mcid: string };
type Kind = 'jail' | 'chatjail' | 'eban' | 'vban';

const SITE_ORIGIN = 'https://bans.example.org';
const COMMUNITY_SERVER = 'Play.Example.NET';
const VERSION = 'test-build';

/** The bans site's routes (docs/bans-site.md), as the site reads them: answer style C, times with the community's offset. */
describe('bans site (e2e)', () => {
  const upstream = new FakeBanlist();
  let app: TestApp;
  let gameServer: { 'x-api-key': string };
  let operator: { 'x-api-key': string };
  let sequence = 0;
  let nextBanId = 700_000;

  const notFound = (message: string): Json => ({ status: false, code: 404, version: VERSION, message, message_ja: expect.any(String) as string });

  /** Punishments through the game server's route; their ids as the service numbers them. */
  async function punish(player: Player, kind: Kind, issuedAt: string, reason = `${kind} reason`): Promise<number> {
    const id = `${kind}-${(sequence += 1)}`;
    const result = await app.post('/game-server/punishments', { punishments: [{ id, kind, uuid: player.uuid, mcid: player.mcid, reason, issuedBy: 'CONSOLE', issuedAt }] }, { headers: gameServer });
    expect(result.status).toBe(200);
    const stored = (await app.app.get(PunishmentsReader).forPlayer(player.uuid)).items.find((item) => item.reason === reason && item.issuedAt.toISOString() === new Date(issuedAt).toISOString());
    return stored!.id;
  }

  async function lift(kind: Kind, id: number, liftedAt = '2031-01-01T00:00:00Z'): Promise<void> {
    expect((await app.post('/game-server/punishments/lifts', { lifts: [{ kind, punishmentId: id, liftedAt }] }, { headers: gameServer })).status).toBe(200);
  }

  /** A community record as `import:original` stores one. */
  async function communityBan(player: Player, type: 'global' | 'local', bannedAt: string, fields: { active?: boolean; bannedBy?: string | null; reason?: string } = {}): Promise<number> {
    const banId = (nextBanId += 1);
    const repository = app.app.get(CommunityBanlistBansRepository);
    await app.app.get(UnitOfWork).transaction(async (tx) => {
      await repository.insert(
        tx,
        { origin: 'original', sourceId: `row-${banId}`, banId, uuid: player.uuid, type, reason: fields.reason ?? `${type} reason`, bannedBy: fields.bannedBy === undefined ? 'Admin' : fields.bannedBy, bannedAt: new Date(bannedAt), bannedAtFrom: 'source' },
        new Date(),
      );
      if (fields.active === false) {
        await repository.update(tx, banId, { active: false }, new Date());
      }
    });
    return banId;
  }

  async function evidenceFor(record: RecordRef): Promise<string> {
    const service = app.app.get(EvidenceService);
    const picture = await service.prepare(await sharp({ create: { width: 4, height: 3, channels: 3, background: '#123456' } }).png().toBuffer());
    return (await app.app.get(UnitOfWork).transaction((tx) => service.store(tx, record, picture, 'Moderator'))).name;
  }

  const minute = (index: number, year = 2030): string => new Date(Date.UTC(year, 0, 1, 0, index)).toISOString();
  /** The same instant as the site shows it: Tokyo's wall clock with +09:00. */
  const tokyo = (iso: string): string => `${new Date(new Date(iso).getTime() + 9 * 3_600_000).toISOString().slice(0, 19)}+09:00`;

  beforeAll(async () => {
    const url = await upstream.start();
    app = await TestApp.start({ CORS_ORIGINS: SITE_ORIGIN, BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '2000', COMMUNITY_BANLIST_SERVER: COMMUNITY_SERVER });
    gameServer = { 'x-api-key': await app.createApiKey(['game-server']) };
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  describe('lists (seeded first: nothing else in this file is newer)', () => {
    const vbans: Array<{ id: number; player: Player; at: string }> = [];
    const gbans: number[] = [];
    let lban: number;
    let liftedLban: number;

    beforeAll(async () => {
      // 18 game bans a minute apart in 2030; the newest and the sixth are lifted.
      for (let index = 0; index < 18; index += 1) {
        const player = newPlayer();
        vbans.push({ id: await punish(player, 'vban', minute(index)), player, at: minute(index) });
      }
      await lift('vban', vbans[17].id);
      await lift('vban', vbans[5].id);
      // 17 global bans (two no longer listed) and 2 local ones (one no longer listed).
      for (let index = 0; index < 17; index += 1) {
        gbans.push(await communityBan(newPlayer(), 'global', minute(index), { active: index !== 16 && index !== 3 }));
      }
      lban = await communityBan(newPlayer(), 'local', minute(1));
      liftedLban = await communityBan(newPlayer(), 'local', minute(2), { active: false });
      const muted = newPlayer();
      await punish(muted, 'chatjail', minute(30));
      await punish(muted, 'jail', minute(31));
      const confined = newPlayer();
      await lift('eban', await punish(confined, 'eban', minute(40)));
      await punish(confined, 'eban', minute(41));
    });

    it('recent/vban: the 15 newest in force by default, with the count of those in force', async () => {
      const result = await app.get<Json>('/v2/bans/recent/vban');
      expect(result.status).toBe(200);
      const inForce = vbans.filter((_, index) => index !== 17 && index !== 5).reverse();
      expect(result.body).toEqual({ status: true, code: 200, version: VERSION, count: 16, items: inForce.slice(0, 15).map((vban) => ({ id: vban.id, mcid: vban.player.mcid, uuid: vban.player.uuid, reason: 'vban reason', status: true, banned_at: tokyo(vban.at) })) });
      expect((result.body.items as Json[])[0].banned_at).toBe('2030-01-01T09:16:00+09:00');
    });

    it('recent/vban with all_items=true, active_only=false, and both', async () => {
      const all = await app.get<{ count: number; items: Json[] }>('/v2/bans/recent/vban', { query: { all_items: 'true' } });
      expect({ count: all.body.count, ids: all.body.items.map((item) => item.id) }).toEqual({ count: 16, ids: vbans.filter((_, index) => index !== 17 && index !== 5).reverse().map((vban) => vban.id) });
      const lifted = await app.get<{ count: number; items: Json[] }>('/v2/bans/recent/vban', { query: { active_only: 'false' } });
      expect({ count: lifted.body.count, ids: lifted.body.items.map((item) => item.id) }).toEqual({ count: 18, ids: [...vbans].reverse().slice(0, 15).map((vban) => vban.id) });
      expect(lifted.body.items[0]).toMatchObject({ id: vbans[17].id, status: false });
      const everything = await app.get<{ count: number; items: Json[] }>('/v2/bans/recent/vban', { query: { all_items: 'true', active_only: 'false' } });
      expect({ count: everything.body.count, length: everything.body.items.length }).toEqual({ count: 18, length: 18 });
      expect(everything.body.items.filter((item) => item.status === false).map((item) => item.id)).toEqual([vbans[17].id, vbans[5].id]);
    });

    it('recent/eban and recent/chatban: their own kind only (jail never appears)', async () => {
      const ebans = await app.get<{ count: number; items: Json[] }>('/v2/bans/recent/eban');
      expect({ count: ebans.body.count, items: ebans.body.items.map((item) => item.banned_at) }).toEqual({ count: 1, items: [tokyo(minute(41))] });
      expect((await app.get<{ count: number }>('/v2/bans/recent/eban', { query: { active_only: 'false' } })).body.count).toBe(2);
      const chatbans = await app.get<{ count: number; items: Json[] }>('/v2/bans/recent/chatban', { query: { all_items: 'true', active_only: 'false' } });
      expect({ count: chatbans.body.count, reasons: chatbans.body.items.map((item) => item.reason) }).toEqual({ count: 1, reasons: ['chatjail reason'] });
    });

    it('recent/mcbans: both ban-list kinds, each cut and counted on its own', async () => {
      const result = await app.get<Json>('/v2/bans/recent/mcbans');
      const inForce = gbans.filter((_, index) => index !== 16 && index !== 3).reverse();
      expect(result.body).toMatchObject({ status: true, code: 200, version: VERSION, count: { gban: 15, lban: 1 } });
      const items = result.body.items as { gban: Json[]; lban: Json[] };
      expect(items.gban.map((item) => item.banid)).toEqual(inForce.slice(0, 15));
      expect(items.lban).toEqual([{ banid: lban, mcid: null, uuid: expect.any(String) as string, reason: 'local reason', status: true, banned_at: tokyo(minute(1)) }]);
      const all = await app.get<{ count: { gban: number; lban: number }; items: { gban: Json[]; lban: Json[] } }>('/v2/bans/recent/mcbans', { query: { all_items: 'true', active_only: 'false' } });
      expect(all.body.count).toEqual({ gban: 17, lban: 2 });
      expect(all.body.items.gban.map((item) => item.banid)).toEqual([...gbans].reverse());
      expect(all.body.items.lban.map((item) => [item.banid, item.status])).toEqual([
        [liftedLban, false],
        [lban, true],
      ]);
      expect((await app.get<{ count: Json }>('/v2/bans/recent/mcbans', { query: { all_items: 'true' } })).body.count).toEqual({ gban: 15, lban: 1 });
    });

    it('a list parameter that is not a boolean is a 400 in the envelope', async () => {
      const result = await app.get<Json>('/v2/bans/recent/vban', { query: { all_items: 'maybe' } });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ status: false, code: 400, error: 'invalid_request', message_ja: expect.any(String) as string });
    });
  });

  describe('one player, one record', () => {
    const player = newPlayer();
    const ids: Record<string, number> = {};
    let proof: string;

    beforeAll(async () => {
      ids.gban = await communityBan(player, 'global', '2020-03-01T00:00:00Z', { bannedBy: 'Admin', reason: 'x-ray' });
      ids.lban = await communityBan(player, 'local', '2020-03-02T00:00:00Z', { active: false, bannedBy: null });
      ids.vban = await punish(player, 'vban', '2020-03-03T00:00:00Z');
      ids.eban = await punish(player, 'eban', '2020-03-04T00:00:00Z');
      ids.chatban = await punish(player, 'chatjail', '2020-03-05T00:00:00Z');
      ids.secondVban = await punish(player, 'vban', '2020-03-06T00:00:00Z', 'again');
      await lift('vban', ids.vban, '2020-04-01T00:00:00Z');
      ids.jail = await punish(player, 'jail', '2020-03-07T00:00:00Z');
      proof = await evidenceFor({ kind: 'vban', id: String(ids.vban) });
    });

    it('recent/{player}: all five arrays, every record of the player in every state, newest first; jail left out', async () => {
      const result = await app.get<Json>(`/v2/bans/recent/${player.uuid}`, { headers: { 'x-recaptcha-token': 'not-checked' } });
      expect(result.status).toBe(200);
      const pun = (id: number, at: string, status: boolean, reason: string): Json => ({ id, mcid: player.mcid, uuid: player.uuid, reason, status, banned_at: tokyo(at) });
      expect(result.body).toEqual({
        status: true,
        code: 200,
        version: VERSION,
        data: {
          gban: [{ banid: ids.gban, mcid: player.mcid, uuid: player.uuid, reason: 'x-ray', status: true, banned_at: '2020-03-01T09:00:00+09:00' }],
          lban: [{ banid: ids.lban, mcid: player.mcid, uuid: player.uuid, reason: 'local reason', status: false, banned_at: '2020-03-02T09:00:00+09:00' }],
          vban: [pun(ids.secondVban, '2020-03-06T00:00:00Z', true, 'again'), pun(ids.vban, '2020-03-03T00:00:00Z', false, 'vban reason')],
          eban: [pun(ids.eban, '2020-03-04T00:00:00Z', true, 'eban reason')],
          chatban: [pun(ids.chatban, '2020-03-05T00:00:00Z', true, 'chatjail reason')],
        },
      });
    });

    it('recent/{player} names the player by game id in any case, uuid with or without hyphens, the same answer', async () => {
      const expected = (await app.get<Json>(`/v2/bans/recent/${player.uuid}`)).body;
      for (const id of [player.mcid, player.mcid.toUpperCase(), player.uuid.toUpperCase(), player.uuid.replace(/-/g, '')]) {
        expect({ id, body: (await app.get<Json>(`/v2/bans/recent/${id}`)).body }).toEqual({ id, body: expected });
      }
    });

    it('a player known only by a ban-list record of the import is found by uuid; a player with nothing at all is not', async () => {
      const onlyBanned = newPlayer();
      const banId = await communityBan(onlyBanned, 'global', '2019-01-01T00:00:00Z');
      const found = await app.get<{ data: { gban: Json[]; vban: Json[] } }>(`/v2/bans/recent/${onlyBanned.uuid}`);
      expect({ gban: found.body.data.gban.map((item) => [item.banid, item.mcid]), vban: found.body.data.vban }).toEqual({ gban: [[banId, null]], vban: [] });
      const stranger = newPlayer();
      for (const id of [stranger.uuid, stranger.mcid, '12345678901234567890', 'a%20b', '%3Cscript%3E', 'x'.repeat(40)]) {
        const result = await app.get<Json>(`/v2/bans/recent/${id}`);
        expect({ id, status: result.status, body: result.body }).toEqual({ id, status: 200, body: notFound('User not found.') });
      }
    });

    it('details/{kind}/{id} of a punishment: the detail and the names of its evidence pictures', async () => {
      const result = await app.get<Json>(`/v2/bans/details/vban/${ids.vban}`);
      expect(result.body).toEqual({
        status: true,
        code: 200,
        version: VERSION,
        detail: { id: ids.vban, player: player.mcid, uuid: player.uuid, reason: 'vban reason', status: false, banned_by: 'CONSOLE', created_at: '2020-03-03T09:00:00+09:00', updated_at: expect.stringMatching(/\+09:00$/) as string },
        proofs: [proof],
      });
      // The picture is where the site's evidence host points.
      const picture = await fetch(new URL(`/evidence/${proof}`, app.baseUrl));
      expect({ status: picture.status, type: picture.headers.get('content-type') }).toEqual({ status: 200, type: 'image/png' });
      expect((await app.get<Json>(`/v2/bans/details/chatban/${ids.chatban}`)).body).toMatchObject({ detail: { id: ids.chatban, status: true }, proofs: null });
      expect((await app.get<Json>(`/v2/bans/details/eban/${ids.eban}`)).body).toMatchObject({ detail: { id: ids.eban, reason: 'eban reason' }, proofs: null });
    });

    it('details/{kind}/{id} of a ban-list record', async () => {
      const result = await app.get<Json>(`/v2/bans/details/gban/${ids.gban}`);
      expect(result.body).toEqual({
        status: true,
        code: 200,
        version: VERSION,
        detail: { banid: ids.gban, player: player.mcid, uuid: player.uuid, reason: 'x-ray', status: true, banned_by: 'Admin', banned_at: '2020-03-01T09:00:00+09:00', updated_at: expect.stringMatching(/\+09:00$/) as string },
        proofs: null,
      });
      expect((await app.get<Json>(`/v2/bans/details/lban/${ids.lban}`)).body).toMatchObject({ detail: { banid: ids.lban, status: false, banned_by: null } });
    });

    it('an unknown record, a kind that is not the record’s, jail, an unknown kind and odd ids: 200 status false', async () => {
      const paths = [
        `/v2/bans/details/vban/${ids.eban}`,
        `/v2/bans/details/lban/${ids.gban}`,
        `/v2/bans/details/jail/${ids.jail}`,
        `/v2/bans/details/chatjail/${ids.chatban}`,
        `/v2/bans/details/gban/${nextBanId + 1000}`,
        '/v2/bans/details/vban/999999',
        '/v2/bans/details/banana/1',
        '/v2/bans/details/vban/abc',
        '/v2/bans/details/vban/0',
        '/v2/bans/details/vban/-1',
        '/v2/bans/details/vban/1.5',
        `/v2/bans/details/vban/0${ids.vban}`,
        '/v2/bans/details/gban/99999999999999999999',
        '/v2/bans/details/vban/%3Cb%3E',
      ];
      for (const path of paths) {
        const result = await app.get<Json>(path);
        expect({ path, status: result.status, body: result.body }).toEqual({ path, status: 200, body: notFound('No such ban record.') });
      }
    });

    it('a player named like a literal route is reached by uuid; the literal route still answers', async () => {
      const named = { uuid: newPlayer().uuid, mcid: 'mcbans' };
      await punish(named, 'vban', '2019-05-05T00:00:00Z');
      expect((await app.get<{ data: { vban: Json[] } }>(`/v2/bans/recent/${named.uuid}`)).body.data.vban).toHaveLength(1);
      expect((await app.get<Json>('/v2/bans/recent/mcbans')).body).toHaveProperty('count.gban');
      // Any other case of the name is not the literal route: the player.
      expect((await app.get<{ data: { vban: Json[] } }>('/v2/bans/recent/MCBANS')).body.data.vban).toHaveLength(1);
    });
  });

  describe('the site in a browser', () => {
    it('a preflight from the site allows X-reCAPTCHA-Token; the call needs no CAPTCHA', async () => {
      const preflight = await fetch(new URL('/v2/bans/recent/vban', app.baseUrl), {
        method: 'OPTIONS',
        headers: { origin: SITE_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-recaptcha-token' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(SITE_ORIGIN);
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-recaptcha-token');
      const call = await fetch(new URL('/v2/bans/details/vban/1', app.baseUrl), { headers: { origin: SITE_ORIGIN, 'x-recaptcha-token': 'whatever' } });
      expect({ status: call.status, origin: call.headers.get('access-control-allow-origin') }).toEqual({ status: 200, origin: SITE_ORIGIN });
    });
  });

  describe('the ban-list sync feeds the community records', () => {
    it("adds the bans of the community's server, keeps one no longer listed with status false, leaves other servers' bans out", async () => {
      const player = newPlayer();
      expect((await app.post('/game-server/logins', { logins: [{ ...player, loggedInAt: '2018-06-01T00:00:00Z' }] }, { headers: gameServer })).status).toBe(200);
      const imported = await communityBan(player, 'global', '2018-01-01T00:00:00Z');
      const [ours, ourLocal, theirs] = [nextBanId + 10, nextBanId + 11, nextBanId + 12];
      nextBanId += 20;
      const listed = [
        { banId: ours, server: { address: 'play.example.net' }, bannedAt: '2018-02-01T00:00:00.000Z', reason: 'hacking' },
        { banId: ourLocal, type: 'local', server: { address: 'PLAY.EXAMPLE.NET' }, bannedAt: '2018-02-02T00:00:00.000Z', reason: 'spam' },
        { banId: theirs, server: { address: 'elsewhere.example.org' }, bannedAt: '2018-02-03T00:00:00.000Z' },
        { banId: imported, server: { address: 'play.example.net' }, bannedAt: '2018-01-01T00:00:00.000Z', reason: 'global reason' },
      ];
      upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 4, listed) });
      expect((await app.post('/users/banlist/sync', undefined, { headers: operator })).status).toBe(200);

      const first = (await app.get<{ data: { gban: Json[]; lban: Json[] } }>(`/v2/bans/recent/${player.mcid}`)).body.data;
      expect({ gban: first.gban.map((item) => [item.banid, item.status, item.reason]), lban: first.lban.map((item) => [item.banid, item.status, item.banned_at]) }).toEqual({
        gban: [
          [ours, true, 'hacking'],
          [imported, true, 'global reason'],
        ],
        lban: [[ourLocal, true, '2018-02-02T09:00:00+09:00']],
      });
      expect((await app.get<Json>(`/v2/bans/details/gban/${ours}`)).body).toMatchObject({ status: true, detail: { banid: ours, player: player.mcid, banned_by: 'Moderator', status: true } });
      expect((await app.get<Json>(`/v2/bans/details/gban/${theirs}`)).body).toEqual(notFound('No such ban record.'));

      // The service lists the local ban only now: the mirror drops the others, the community keeps its two, no longer in force.
      upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 8, [listed[1]]) });
      expect((await app.post('/users/banlist/sync', undefined, { headers: operator })).status).toBe(200);
      const second = (await app.get<{ data: { gban: Json[]; lban: Json[] } }>(`/v2/bans/recent/${player.uuid}`)).body.data;
      expect({ gban: second.gban.map((item) => [item.banid, item.status]), lban: second.lban.map((item) => [item.banid, item.status]) }).toEqual({
        gban: [
          [ours, false],
          [imported, false],
        ],
        lban: [[ourLocal, true]],
      });
      expect((await app.get<Json>(`/v2/bans/details/gban/${ours}`)).body).toMatchObject({ detail: { banid: ours, status: false } });
      expect((await app.get('/users/banlist/ban/' + String(ours), { headers: operator })).status).toBe(404);
      const inForce = (await app.get<{ items: { gban: Json[] } }>('/v2/bans/recent/mcbans', { query: { all_items: 'true' } })).body.items.gban.map((item) => item.banid);
      expect(inForce).not.toContain(ours);
      const every = (await app.get<{ items: { gban: Json[] } }>('/v2/bans/recent/mcbans', { query: { all_items: 'true', active_only: 'false' } })).body.items.gban.map((item) => item.banid);
      expect(every).toEqual(expect.arrayContaining([ours, imported]));

      // Listed again: in force again.
      upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 4, listed) });
      expect((await app.post('/users/banlist/sync', undefined, { headers: operator })).status).toBe(200);
      expect((await app.get<Json>(`/v2/bans/details/gban/${ours}`)).body).toMatchObject({ detail: { status: true } });

      // A failed fetch (the service answers 500) keeps the player's data: the records stay in force.
      upstream.script(player.uuid, { status: 500 });
      expect((await app.post('/users/banlist/sync', undefined, { headers: operator })).status).toBe(200);
      expect((await app.get<Json>(`/v2/bans/details/gban/${ours}`)).body).toMatchObject({ detail: { status: true } });
      expect((await app.get<Json>(`/v2/bans/details/lban/${ourLocal}`)).body).toMatchObject({ detail: { status: true } });

      // The service has no record of the player any more (404): the community keeps its records, no longer in force.
      upstream.script(player.uuid, { status: 404 });
      expect((await app.post('/users/banlist/sync', undefined, { headers: operator })).status).toBe(200);
      expect((await app.get<Json>(`/v2/bans/details/gban/${ours}`)).body).toMatchObject({ status: true, detail: { status: false } });
      expect((await app.get<Json>(`/v2/bans/details/lban/${ourLocal}`)).body).toMatchObject({ status: true, detail: { status: false } });
    });
  });
});
