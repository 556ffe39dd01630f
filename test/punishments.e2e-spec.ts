import { UnitOfWork } from '../src/database/unit-of-work';
import { PlayersService } from '../src/players/players.service';
import { PunishmentsImport, type OriginalPunishmentRow } from '../src/punishments/punishments.import';
import { PunishmentsReader } from '../src/punishments/punishments.reader';
import { expectError, HttpResult, newPlayer, TestApp } from './support/test-app';
import { WebhookReceivers } from './support/webhook-receiver';

interface FeedEvent {
  id: number;
  type: string;
  at: string;
  data: { punishment?: Record<string, unknown> };
}

const ids = { next: 0 };
const nextId = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${(ids.next += 1)}`;

describe('punishments (e2e)', () => {
  let app: TestApp;
  const gameServer = { headers: {} as Record<string, string> };
  let operator: Record<string, string>;
  const receivers = new WebhookReceivers();
  const issue = (punishments: unknown[]): Promise<HttpResult> => app.post('/game-server/punishments', { punishments }, gameServer);
  const lift = (lifts: unknown[]): Promise<HttpResult> => app.post('/game-server/punishments/lifts', { lifts }, gameServer);
  const reader = (): PunishmentsReader => app.app.get(PunishmentsReader);
  const punishment = (player: { uuid: string; mcid: string }, kind: string, issuedAt: string, extra: Record<string, unknown> = {}) => ({
    id: nextId(kind),
    kind,
    uuid: player.uuid,
    mcid: player.mcid,
    reason: `reason of ${kind}`,
    issuedBy: 'CONSOLE',
    issuedAt,
    ...extra,
  });
  const feedAfter = async (after: number): Promise<FeedEvent[]> => (await app.get<{ data: FeedEvent[] }>('/events', { query: { after }, headers: operator })).body.data;
  const lastEventId = async (): Promise<number> => {
    let after = 0;
    for (;;) {
      const page = await app.get<{ data: FeedEvent[]; next: number }>('/events', { query: { after, limit: 500 }, headers: operator });
      if (page.body.data.length === 0) {
        return after;
      }
      after = page.body.next;
    }
  };

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '200' });
    gameServer.headers = { 'x-api-key': await app.createApiKey(['game-server']) };
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
    await receivers.stopAll();
  });

  describe('credentials', () => {
    const player = newPlayer();
    const routes: Array<[string, unknown]> = [
      ['/game-server/punishments', { punishments: [punishment(player, 'jail', '2026-01-01T00:00:00Z')] }],
      ['/game-server/punishments/lifts', { lifts: [{ kind: 'jail', id: 'x', liftedAt: '2026-01-01T00:00:00Z' }] }],
    ];
    it.each(routes)('POST %s answers 401 without a key and 403 with an operator key', async (path, body) => {
      expectError(await app.post(path, body), 401, 'unauthorized');
      expectError(await app.post(path, body, { headers: operator }), 403, 'forbidden');
    });
  });

  it('a player with no punishment: zero counts, no items', async () => {
    const nobody = newPlayer();
    await expect(reader().forPlayer(nobody.uuid)).resolves.toEqual({ counts: { jail: 0, chatjail: 0, eban: 0, vban: 0 }, items: [] });
    await expect(reader().hasAny(nobody.uuid)).resolves.toBe(false);
  });

  it('stores a batch of every kind, newest first, idempotent by (kind, id), and makes the player known', async () => {
    const player = newPlayer();
    const batch = [
      punishment(player, 'jail', '2026-01-01T00:00:00Z', { testment: 'I was framed' }),
      punishment(player, 'chatjail', '2026-01-02T00:00:00+09:00'),
      punishment(player, 'eban', '2026-01-03T00:00:00Z', { issuedBy: 'Moderator_1' }),
      punishment(player, 'vban', '2026-01-04T00:00:00Z', { uuid: player.uuid.toUpperCase() }),
    ];
    // The same sender id under another kind is another punishment.
    batch.push({ ...punishment(player, 'eban', '2025-12-01T00:00:00Z'), id: batch[0].id });
    const first = await issue(batch);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 5, skipped: 0 });
    expect((await issue(batch)).body).toMatchObject({ accepted: 0, skipped: 5 });

    const read = await reader().forPlayer(player.uuid.toUpperCase());
    expect(read.counts).toEqual({ jail: 1, chatjail: 1, eban: 2, vban: 1 });
    expect(read.items.map((item) => item.kind)).toEqual(['VBan', 'EBan', 'ChatJail', 'Jail', 'EBan']);
    expect(read.items[3]).toEqual({
      kind: 'Jail',
      id: expect.any(Number),
      mcid: player.mcid,
      reason: 'reason of jail',
      testment: 'I was framed',
      active: true,
      issuedBy: 'CONSOLE',
      issuedAt: new Date('2026-01-01T00:00:00Z'),
      liftedAt: null,
    });
    expect(read.items[1]).toMatchObject({ issuedBy: 'Moderator_1', testment: null, issuedAt: new Date('2026-01-03T00:00:00Z') });
    expect(read.items[2].issuedAt).toEqual(new Date('2026-01-01T15:00:00Z'));
    expect(new Set(read.items.map((item) => item.id)).size).toBe(5);
    await expect(reader().hasAny(player.uuid)).resolves.toBe(true);
    // Known to players by uuid (a bare row, no first login), like a player with a user key.
    expect(await app.app.get(PlayersService).findByUuid(player.uuid)).toMatchObject({ uuid: player.uuid, mcid: player.mcid, firstLogin: null });
  });

  it('stores a batch sent twice at the same time once (the database decides), and lifts it once', async () => {
    const player = newPlayer();
    const batch = Array.from({ length: 20 }, (_, index) => punishment(index % 2 === 0 ? player : newPlayer(), index % 3 === 0 ? 'vban' : 'jail', `2026-05-01T00:00:${String(index).padStart(2, '0')}Z`));
    const answers = await Promise.all([issue(batch), issue(batch), issue(batch)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.reduce((sum, answer) => sum + (answer.body.accepted as number), 0)).toBe(20);
    expect((await reader().forPlayer(player.uuid)).items).toHaveLength(10);
    const lifts = batch.map((item) => ({ kind: item.kind, id: item.id, liftedAt: '2026-05-02T00:00:00Z' }));
    const lifted = await Promise.all([lift(lifts), lift(lifts)]);
    expect(lifted.reduce((sum, answer) => sum + (answer.body.accepted as number), 0)).toBe(20);
  });

  it('records punishment.issued and punishment.lifted once each, in the feed and to a webhook', async () => {
    const target = await receivers.start();
    const hook = await app.post<{ data: { id: number } }>('/webhooks', { url: target.url, events: ['punishment.issued', 'punishment.lifted'] }, { headers: operator });
    expect(hook.status).toBe(201);
    const after = await lastEventId();
    const player = newPlayer();
    const jail = punishment(player, 'jail', '2026-02-01T00:00:00Z');
    expect((await issue([jail])).body).toMatchObject({ accepted: 1 });
    expect((await issue([jail])).body).toMatchObject({ accepted: 0, skipped: 1 });
    const liftItem = { kind: 'jail', id: jail.id, liftedAt: '2026-02-02T00:00:00Z' };
    expect((await lift([liftItem])).body).toMatchObject({ accepted: 1, skipped: 0 });
    // A repeat lift changes nothing and records no second event.
    expect((await lift([liftItem, { ...liftItem, liftedAt: '2026-03-01T00:00:00Z' }])).body).toMatchObject({ accepted: 0, skipped: 2 });

    const events = (await feedAfter(after)).filter((event) => event.type.startsWith('punishment.'));
    expect(events.map((event) => event.type)).toEqual(['punishment.issued', 'punishment.lifted']);
    expect(events[0].data.punishment).toEqual({
      id: expect.any(Number),
      kind: 'jail',
      uuid: player.uuid,
      mcid: player.mcid,
      reason: 'reason of jail',
      testment: null,
      active: true,
      issuedBy: 'CONSOLE',
      issuedAt: '2026-02-01T00:00:00.000Z',
      liftedAt: null,
    });
    expect(events[1].data.punishment).toMatchObject({ id: events[0].data.punishment?.id, active: false, liftedAt: '2026-02-02T00:00:00.000Z' });

    const received = await target.waitFor(2);
    expect(received.map((request) => request.headers['x-community-event']).sort()).toEqual(['punishment.issued', 'punishment.lifted']);
    expect(JSON.parse(received[0].body)).toMatchObject({ type: expect.stringMatching(/^punishment\./), data: { punishment: { uuid: player.uuid } } });
    const read = await reader().forPlayer(player.uuid);
    expect(read.items).toEqual([expect.objectContaining({ kind: 'Jail', active: false, liftedAt: new Date('2026-02-02T00:00:00Z') })]);
    await app.request('DELETE', `/webhooks/${hook.body.data.id}`, { headers: operator });
  });

  it('lifts by the service id too (a punishment imported from the original), and refuses an unknown one naming it, changing nothing', async () => {
    const player = newPlayer();
    const jail = punishment(player, 'jail', '2026-04-01T00:00:00Z');
    const eban = punishment(player, 'eban', '2026-04-02T00:00:00Z');
    await issue([jail, eban]);
    const [ebanRead] = (await reader().forPlayer(player.uuid)).items;
    const unknown = await lift([
      { kind: 'jail', id: jail.id, liftedAt: '2026-04-03T00:00:00Z' },
      { kind: 'jail', id: 'never-issued', liftedAt: '2026-04-03T00:00:00Z' },
    ]);
    expectError(unknown, 400, 'invalid_request');
    expect(unknown.body.details).toEqual([expect.objectContaining({ field: 'lifts.1.id' })]);
    // The wrong kind for a service id is unknown as well.
    const wrongKind = expectError(await lift([{ kind: 'jail', punishmentId: ebanRead.id, liftedAt: '2026-04-03T00:00:00Z' }]), 400, 'invalid_request');
    expect(wrongKind.body.details).toEqual([expect.objectContaining({ field: 'lifts.0.punishmentId' })]);
    expect((await reader().forPlayer(player.uuid)).items.every((item) => item.active)).toBe(true);

    expect((await lift([{ kind: 'eban', punishmentId: ebanRead.id, liftedAt: '2026-04-03T00:00:00Z' }])).body).toMatchObject({ accepted: 1 });
    expect((await reader().forPlayer(player.uuid)).items.map((item) => [item.kind, item.active])).toEqual([
      ['EBan', false],
      ['Jail', true],
    ]);
  });

  it.each([
    ['an unknown kind', { kind: 'chatban' }, 'punishments.1.kind'],
    ['a uuid without hyphens', { uuid: '069a79f444e94726a5befca90e38aaf5' }, 'punishments.1.uuid'],
    ['an id with a space', { id: 'a b' }, 'punishments.1.id'],
    ['an id of 65 characters', { id: 'x'.repeat(65) }, 'punishments.1.id'],
    ['a time without a zone', { issuedAt: '2026-01-01T00:00:00' }, 'punishments.1.issuedAt'],
    ['an empty issuer', { issuedBy: '' }, 'punishments.1.issuedBy'],
    ['a testment on a mute', { kind: 'chatjail', testment: 'no' }, 'punishments.1.testment'],
  ])('refuses %s, naming the element, storing nothing', async (_label, change, field) => {
    const player = newPlayer();
    const result = await issue([punishment(player, 'jail', '2026-01-01T00:00:00Z'), { ...punishment(player, 'jail', '2026-01-01T00:00:00Z'), ...change }]);
    expectError(result, 400, 'invalid_request');
    expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    await expect(reader().hasAny(player.uuid)).resolves.toBe(false);
  });

  it('refuses a lift with both or neither of id and punishmentId, and an empty or oversized batch', async () => {
    expect((expectError(await lift([{ kind: 'jail', liftedAt: '2026-01-01T00:00:00Z' }]), 400, 'invalid_request')).body.details).toEqual([expect.objectContaining({ field: 'lifts.0.id' })]);
    expectError(await lift([{ kind: 'jail', id: 'a', punishmentId: 1, liftedAt: '2026-01-01T00:00:00Z' }]), 400, 'invalid_request');
    expectError(await issue([]), 400, 'invalid_request');
    const player = newPlayer();
    expectError(await issue(Array.from({ length: 1001 }, () => punishment(player, 'jail', '2026-01-01T00:00:00Z'))), 400, 'invalid_request');
  });

  it('imports the original tables idempotently: both mute tables one kind with new ids, status and testment kept', async () => {
    const player = newPlayer();
    const row = (table: OriginalPunishmentRow['table'], sourceId: string, extra: Partial<OriginalPunishmentRow> = {}): OriginalPunishmentRow => ({
      table,
      sourceId,
      uuid: player.uuid,
      mcid: player.mcid,
      reason: `${table} ${sourceId}`,
      testment: table === 'jail' ? 'last words' : null,
      active: true,
      issuedBy: 'jaotan',
      issuedAt: new Date(`2020-01-0${sourceId}T00:00:00Z`),
      liftedAt: null,
      ...extra,
    });
    const rows = [row('jail', '1', { active: false }), row('eban', '2'), row('chatban', '3'), row('chatjail', '3', { testment: 'ignored' }), row('jail', '4')];
    const run = () => app.app.get(UnitOfWork).transaction((tx) => app.app.get(PunishmentsImport).importPunishmentsIn(tx, rows));
    await expect(run()).resolves.toEqual({ accepted: 5, skipped: 0 });
    await expect(run()).resolves.toEqual({ accepted: 0, skipped: 5 });
    const read = await reader().forPlayer(player.uuid);
    expect(read.counts).toEqual({ jail: 2, chatjail: 2, eban: 1, vban: 0 });
    const mutes = read.items.filter((item) => item.kind === 'ChatJail');
    expect(mutes).toHaveLength(2);
    expect(mutes[0].id).not.toBe(mutes[1].id);
    expect(mutes.every((item) => item.testment === null)).toBe(true);
    expect(read.items.find((item) => item.reason === 'jail 1')).toMatchObject({ active: false, testment: 'last words', issuedBy: 'jaotan' });
    expect(await app.app.get(PlayersService).findByUuid(player.uuid)).toMatchObject({ mcid: player.mcid });
  });
});
