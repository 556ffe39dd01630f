import { newPlayer, TestApp } from './support/test-app';

describe('club accounts (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('registers with a user key and returns a token in the base response', async () => {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    expect(userkey).toMatch(/^[A-Za-z]{10}$/);
    const result = await app.post('/club/register', { userkey, password: 'hunter2hunter2', recaptcha: 'pass' });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      status: true,
      code: 201,
      version: 'test-build',
      usertoken: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const me = await app.get('/club/@me', { query: { usertoken: result.body.usertoken as string } });
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      uuid: player.uuid,
      mcid: player.mcid,
      chatid: null,
      nickname: null,
      clubgroup: 'default',
      permission: null,
      createdAt: expect.any(String),
    });
  });

  it('lets exactly one of five parallel registers with one user key succeed', async () => {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => app.post('/club/register', { userkey, password: 'parallel-pass', recaptcha: 'pass' })),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.every((status) => status === 201 || status === 401 || status === 409)).toBe(true);
  });
});
