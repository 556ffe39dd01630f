import { newPlayer, TestApp } from './support/test-app';

describe('concurrent writes (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('issues user keys for many players at once without a single 5xx', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => app.post('/game-server/userkeys', newPlayer(), { headers: { 'x-api-key': gameServerKey } })),
    );
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(201));
  });

  it('keeps only the newest key when one player asks for several at once', async () => {
    const player = newPlayer();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => app.post<{ userkey: string }>('/game-server/userkeys', player, { headers: { 'x-api-key': gameServerKey } })),
    );
    expect(results.map((result) => result.status)).toEqual(Array(5).fill(201));
    const rows = await app.dataSource.query('SELECT COUNT(*) AS n FROM user_keys WHERE player_uuid = ?', [player.uuid]);
    expect(Number((rows as Array<{ n: number | string }>)[0].n)).toBe(1);
  });
});
