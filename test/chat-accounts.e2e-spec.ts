import { ChatAccountsImport } from '../src/chat-accounts/chat-accounts.import';
import { ChatAccountsReader } from '../src/chat-accounts/chat-accounts.reader';
import { defaultAvatarUrl } from '../src/chat-accounts/profile-fields';
import { UnitOfWork } from '../src/database/unit-of-work';
import { PlayersService } from '../src/players/players.service';
import { expectError, HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

let chatCounter = 0;
/** A fresh chat id (18 digits) per call. */
function newChatid(): string {
  chatCounter += 1;
  return `${1_100_000_000_000 + Math.floor(Math.random() * 800_000_000_000)}${String(chatCounter).padStart(5, '0')}`;
}

let idCounter = 0;
const newId = (): string => `msg-${Date.now()}-${(idCounter += 1)}`;

describe('chat accounts (e2e)', () => {
  let app: TestApp;
  let reader: ChatAccountsReader;
  let players: PlayersService;
  let botKey: string;
  let serverKey: string;
  const asBot = { headers: {} as Record<string, string> };

  const postAccounts = (accounts: unknown[]): Promise<HttpResult> => app.post('/chat-bot/accounts', { accounts }, asBot);
  const postSeconds = (secondAccounts: unknown[]): Promise<HttpResult> => app.post('/chat-bot/second-accounts', { secondAccounts }, asBot);
  const postLinks = (links: unknown[]): Promise<HttpResult> => app.post('/chat-bot/profile-links', { links }, asBot);
  /** A player who logged in and linked `chatid` through the game server's routes. */
  const linkedPlayer = async (chatid: string): Promise<{ uuid: string; mcid: string }> => {
    const player = newPlayer();
    const headers = { 'x-api-key': serverKey };
    expect((await app.post('/game-server/logins', { logins: [{ ...player, loggedInAt: '2024-01-01T00:00:00Z' }] }, { headers })).status).toBe(200);
    expect((await app.request('PUT', `/game-server/chat-links/${player.uuid}`, { body: { chatid }, headers })).status).toBe(200);
    return player;
  };
  const linkedChatid = async (uuid: string): Promise<string | null> => (await players.findByUuid(uuid))?.chatid ?? null;

  beforeAll(async () => {
    app = await TestApp.start();
    reader = app.app.get(ChatAccountsReader);
    players = app.app.get(PlayersService);
    botKey = await app.createApiKey(['chat-bot']);
    serverKey = await app.createApiKey(['game-server']);
    asBot.headers = { 'x-api-key': botKey };
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('credentials', () => {
    const routes: Array<[string, unknown]> = [
      ['/chat-bot/accounts', { accounts: [{ id: 'a', chatid: '123456789012345678', name: 'n', reportedAt: '2024-01-01T00:00:00Z' }] }],
      ['/chat-bot/second-accounts', { secondAccounts: [{ id: 'a', chatid: '123456789012345679', mainChatid: '123456789012345678', registeredAt: '2024-01-01T00:00:00Z' }] }],
      ['/chat-bot/profile-links', { links: [{ id: 'a', uuid: newPlayer().uuid, githubId: 'octocat' }] }],
    ];

    it.each(routes)('POST %s answers 401 without a key', async (path, body) => {
      expectError(await app.post(path, body), 401, 'unauthorized');
    });

    it.each(routes)('POST %s answers 403 with a game-server key', async (path, body) => {
      expectError(await app.post(path, body, { headers: { 'x-api-key': serverKey } }), 403, 'forbidden');
    });
  });

  describe('a player with no data', () => {
    it('has no chat accounts and no links', async () => {
      const stranger = newPlayer();
      await expect(reader.forPlayer(stranger.uuid, null)).resolves.toEqual({ main: null, sub: null });
      await expect(reader.profileLinks(stranger.uuid)).resolves.toEqual({ twitterId: null, githubId: null, homeUrl: null });
    });

    it('has a main account with the default avatar and the chat id as its name while the bot has reported nothing', async () => {
      const chatid = newChatid();
      const player = await linkedPlayer(chatid);
      await expect(reader.forPlayer(player.uuid, await linkedChatid(player.uuid))).resolves.toEqual({
        main: { id: chatid, name: chatid, discriminator: '0', avatarUrl: defaultAvatarUrl(chatid, '0') },
        sub: null,
      });
    });
  });

  describe('POST /chat-bot/accounts', () => {
    it('stores the latest report of each chat id and skips a re-send', async () => {
      const chatid = newChatid();
      const player = await linkedPlayer(chatid);
      const first = { id: newId(), chatid, name: 'taro', discriminator: '1234', reportedAt: '2024-05-01T00:00:00Z' };
      const result = await postAccounts([first]);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 1, skipped: 0 });
      expect((await postAccounts([first])).body).toMatchObject({ accepted: 0, skipped: 1 });
      await expect(reader.forPlayer(player.uuid, chatid)).resolves.toMatchObject({ main: { id: chatid, name: 'taro', discriminator: '1234', avatarUrl: defaultAvatarUrl(chatid, '1234') } });

      const avatar = 'https://cdn.discordapp.com/avatars/x/abc.png';
      const newer = { id: newId(), chatid, name: 'taro_new', avatarUrl: avatar, reportedAt: '2024-06-01T00:00:00+09:00' };
      const older = { id: newId(), chatid, name: 'taro_old', discriminator: '0001', reportedAt: '2024-04-01T00:00:00Z' };
      // The older report arrives last and changes nothing; both are new records, so both count as accepted.
      expect((await postAccounts([newer, older])).body).toMatchObject({ accepted: 2, skipped: 0 });
      await expect(reader.forPlayer(player.uuid, chatid)).resolves.toEqual({ main: { id: chatid, name: 'taro_new', discriminator: '0', avatarUrl: avatar }, sub: null });
    });

    it('counts a repeat of an id inside one batch as skipped', async () => {
      const chatid = newChatid();
      const id = newId();
      const result = await postAccounts([
        { id, chatid, name: 'first', reportedAt: '2024-01-01T00:00:00Z' },
        { id, chatid, name: 'second', reportedAt: '2024-02-01T00:00:00Z' },
      ]);
      expect(result.body).toMatchObject({ accepted: 1, skipped: 1 });
      await expect(reader.forPlayer('', chatid)).resolves.toMatchObject({ main: { name: 'first' } });
    });

    it('rejects the whole batch when one element is invalid, naming it', async () => {
      const good = newChatid();
      const result = await postAccounts([
        { id: newId(), chatid: good, name: 'ok', reportedAt: '2024-01-01T00:00:00Z' },
        { id: newId(), chatid: '12', name: 'bad', reportedAt: '2024-01-01T00:00:00Z' },
      ]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: 'accounts.1.chatid' })]);
      await expect(reader.forPlayer('', good)).resolves.toMatchObject({ main: { name: good } });
    });

    it.each([
      ['id', { id: 'has space' }],
      ['id', { id: '' }],
      ['id', { id: 'x'.repeat(65) }],
      ['name', { name: '' }],
      ['name', { name: 'n'.repeat(101) }],
      ['discriminator', { discriminator: '12345' }],
      ['avatarUrl', { avatarUrl: 'javascript:alert(1)' }],
      ['reportedAt', { reportedAt: '2024-01-01T00:00:00' }],
    ])('names accounts.0.%s when it is %p', async (field, patch) => {
      const result = await postAccounts([{ id: newId(), chatid: newChatid(), name: 'n', reportedAt: '2024-01-01T00:00:00Z', ...patch }]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: `accounts.0.${field}` })]);
    });

    it('takes 1000 records in one batch, and refuses an empty batch and one of more than 1000', async () => {
      const full = Array.from({ length: 1000 }, (_, index) => ({ id: `full-${index}`, chatid: newChatid(), name: `n${index}`, avatarUrl: `https://cdn.example/avatars/${index}/${'a'.repeat(32)}.png`, reportedAt: '2024-01-01T00:00:00.000Z' }));
      expect((await postAccounts(full)).body).toMatchObject({ accepted: 1000, skipped: 0 });
      expectError(await postAccounts([]), 400, 'invalid_request');
      const many = Array.from({ length: 1001 }, (_, index) => ({ id: `x${index}`, chatid: '123456789012345678', name: 'n', reportedAt: '2024-01-01T00:00:00Z' }));
      expectError(await postAccounts(many), 400, 'invalid_request');
    });
  });

  describe('POST /chat-bot/second-accounts', () => {
    it('shows the most recently registered second account of the main account', async () => {
      const main = newChatid();
      const player = await linkedPlayer(main);
      const older = newChatid();
      const newer = newChatid();
      const batch = [
        { id: newId(), chatid: newer, mainChatid: main, registeredAt: '2024-03-01T00:00:00Z' },
        { id: newId(), chatid: older, mainChatid: main, registeredAt: '2024-02-01T00:00:00Z' },
      ];
      expect((await postSeconds(batch)).body).toMatchObject({ accepted: 2, skipped: 0 });
      expect((await postSeconds(batch)).body).toMatchObject({ accepted: 0, skipped: 2 });
      // No name reported for it yet: its chat id stands in.
      await expect(reader.forPlayer(player.uuid, main)).resolves.toMatchObject({ sub: { id: newer, name: newer, discriminator: '0', avatarUrl: defaultAvatarUrl(newer, '0') } });

      await postAccounts([{ id: newId(), chatid: newer, name: 'alt', avatarUrl: 'https://cdn.example/alt.png', reportedAt: '2024-03-02T00:00:00Z' }]);
      await expect(reader.forPlayer(player.uuid, main)).resolves.toMatchObject({ sub: { id: newer, name: 'alt', avatarUrl: 'https://cdn.example/alt.png' } });
    });

    it('names a bad element', async () => {
      const result = await postSeconds([{ id: newId(), chatid: newChatid(), mainChatid: 'x', registeredAt: '2024-01-01T00:00:00Z' }]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: 'secondAccounts.0.mainChatid' })]);
    });
  });

  describe('POST /chat-bot/profile-links', () => {
    it('records a player not seen yet by uuid, and applies changes in order: a value sets, null clears, absent keeps', async () => {
      const player = newPlayer();
      const upper = player.uuid.toUpperCase();
      const result = await postLinks([
        { id: newId(), uuid: upper, twitterId: '@jaoafa', githubId: 'octocat' },
        { id: newId(), uuid: player.uuid, homeUrl: 'https://example.com/~taro', twitterId: null },
      ]);
      expect(result.body).toMatchObject({ accepted: 2, skipped: 0 });
      expect(await players.findByUuid(player.uuid)).toMatchObject({ uuid: player.uuid, firstLogin: null });
      await expect(reader.profileLinks(player.uuid)).resolves.toEqual({ twitterId: null, githubId: 'octocat', homeUrl: 'https://example.com/~taro' });
    });

    it('keeps the name of a player it records by uuid once they log in', async () => {
      const player = newPlayer();
      await postLinks([{ id: newId(), uuid: player.uuid, githubId: 'someone' }]);
      await app.post('/game-server/logins', { logins: [{ ...player, loggedInAt: '2024-01-01T00:00:00Z' }] }, { headers: { 'x-api-key': serverKey } });
      expect(await players.findByUuid(player.uuid)).toMatchObject({ mcid: player.mcid });
      expect((await app.get(`/users/${player.uuid}`)).body.data).toMatchObject({ mcid: player.mcid });
    });

    it.each([
      ['githubId', { githubId: 'https://github.com/octocat' }],
      ['homeUrl', { homeUrl: 'ftp://example.com/' }],
      ['twitterId', { twitterId: 'two words' }],
      ['uuid', { uuid: 'nope' }],
    ])('names links.1.%s and stores nothing', async (field, patch) => {
      const player = newPlayer();
      const result = await postLinks([
        { id: newId(), uuid: player.uuid, githubId: 'fine' },
        { id: newId(), uuid: player.uuid, ...patch },
      ]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: `links.1.${field}` })]);
      await expect(reader.profileLinks(player.uuid)).resolves.toEqual({ twitterId: null, githubId: null, homeUrl: null });
      expect(await players.findByUuid(player.uuid)).toBeNull();
    });
  });

  describe('the account page: /club/@me/profile-links', () => {
    it('lets the signed-in player read and set their links', async () => {
      const user = await registerClubUser(app, serverKey);
      const bearer = { headers: { authorization: `Bearer ${user.usertoken}` } };
      expect((await app.get('/club/@me/profile-links', bearer)).body).toMatchObject({ status: true, data: { twitterId: null, githubId: null, homeUrl: null } });

      const set = await app.request('PUT', '/club/@me/profile-links', { body: { twitterId: 'taro_tw', githubId: 'taro-gh', homeUrl: 'https://taro.example/' }, ...bearer });
      expect(set.status).toBe(200);
      expect(set.body.data).toEqual({ twitterId: 'taro_tw', githubId: 'taro-gh', homeUrl: 'https://taro.example/' });
      const cleared = await app.request('PUT', '/club/@me/profile-links', { body: { homeUrl: null }, ...bearer });
      expect(cleared.body.data).toEqual({ twitterId: 'taro_tw', githubId: 'taro-gh', homeUrl: null });
      await expect(reader.profileLinks(user.uuid)).resolves.toEqual({ twitterId: 'taro_tw', githubId: 'taro-gh', homeUrl: null });

      const bad = await app.request('PUT', '/club/@me/profile-links', { body: { homeUrl: 'not a url' }, ...bearer });
      expectError(bad, 400, 'invalid_request');
      expect(bad.body.details).toEqual([expect.objectContaining({ field: 'homeUrl' })]);
    });

    it('needs a user token', async () => {
      expectError(await app.get('/club/@me/profile-links'), 401, 'unauthorized');
      expectError(await app.request('PUT', '/club/@me/profile-links', { body: { githubId: 'x' } }), 401, 'unauthorized');
    });
  });

  describe('the import API', () => {
    const inTx = <T>(work: (importer: ChatAccountsImport, tx: Parameters<Parameters<UnitOfWork['transaction']>[0]>[0]) => Promise<T>): Promise<T> =>
      app.app.get(UnitOfWork).transaction((tx) => work(app.app.get(ChatAccountsImport), tx));

    it('imports discordlink rows in order: the newest row decides the link; reruns skip; bad rows are refused', async () => {
      const known = await linkedPlayer(newChatid());
      const newcomer = newPlayer();
      const first = newChatid();
      const second = newChatid();
      const rows = [
        { sourceId: 'dl-1', uuid: known.uuid, mcid: known.mcid, chatid: first, name: 'old_name', discriminator: '4321', disabled: false },
        { sourceId: 'dl-2', uuid: known.uuid, mcid: known.mcid, chatid: first, name: 'old_name', discriminator: '4321', disabled: true },
        { sourceId: 'dl-3', uuid: known.uuid.replace(/-/g, '').toUpperCase(), mcid: known.mcid, chatid: second, name: 'known_chat', discriminator: null, disabled: false },
        { sourceId: 'dl-4', uuid: newcomer.uuid, mcid: newcomer.mcid, chatid: first, name: 'newcomer_chat', discriminator: '0000', disabled: false },
        { sourceId: 'dl-5', uuid: 'nope', mcid: null, chatid: first, name: null, discriminator: null, disabled: false },
        { sourceId: 'dl-6', uuid: newcomer.uuid, mcid: null, chatid: '42', name: null, discriminator: null, disabled: false },
      ];
      const counts = await inTx((importer, tx) => importer.importChatLinksIn(tx, rows));
      expect(counts).toEqual({ accepted: 4, skipped: 0, refused: [expect.objectContaining({ sourceId: 'dl-5' }), expect.objectContaining({ sourceId: 'dl-6' })] });
      expect(await linkedChatid(known.uuid)).toBe(second);
      expect(await linkedChatid(newcomer.uuid)).toBe(first);
      expect(await players.findByUuid(newcomer.uuid)).toMatchObject({ mcid: newcomer.mcid, firstLogin: null });
      await expect(reader.forPlayer(known.uuid, second)).resolves.toMatchObject({ main: { id: second, name: 'known_chat', discriminator: '0' } });
      // The first imported name stays: a later imported row never overwrites, only the bot's reports do.
      await expect(reader.forPlayer(newcomer.uuid, first)).resolves.toMatchObject({ main: { id: first, name: 'old_name', discriminator: '4321' } });

      const again = await inTx((importer, tx) => importer.importChatLinksIn(tx, rows));
      expect(again).toMatchObject({ accepted: 0, skipped: 4 });
      expect(again.refused).toHaveLength(2);

      // A report of the bot is newer than any imported name.
      await postAccounts([{ id: newId(), chatid: first, name: 'reported', reportedAt: '2020-01-01T00:00:00Z' }]);
      await expect(reader.forPlayer(newcomer.uuid, first)).resolves.toMatchObject({ main: { name: 'reported', discriminator: '0' } });
    });

    it('imports subaccount rows with their names; the bot sees the same second accounts', async () => {
      const main = newChatid();
      const player = await linkedPlayer(main);
      const sub = newChatid();
      const rows = [
        { sourceId: '1', chatid: sub, name: 'sub_name', discriminator: '0007', mainChatid: main, registeredAt: new Date('2022-01-01T00:00:00Z') },
        { sourceId: '2', chatid: main, name: 'self', discriminator: null, mainChatid: main, registeredAt: new Date('2022-01-01T00:00:00Z') },
      ];
      const counts = await inTx((importer, tx) => importer.importSecondAccountsIn(tx, rows));
      expect(counts).toEqual({ accepted: 1, skipped: 0, refused: [{ sourceId: '2', reason: expect.any(String) }] });
      await expect(reader.forPlayer(player.uuid, main)).resolves.toMatchObject({ main: { id: main, name: main }, sub: { id: sub, name: 'sub_name', discriminator: '0007', avatarUrl: defaultAvatarUrl(sub, '0007') } });
      // The same source key from the bot is another sender's record, not a repeat.
      expect((await postSeconds([{ id: '1', chatid: newChatid(), mainChatid: main, registeredAt: '2021-01-01T00:00:00Z' }])).body).toMatchObject({ accepted: 1 });
      await expect(reader.forPlayer(player.uuid, main)).resolves.toMatchObject({ sub: { id: sub } });
      expect(await inTx((importer, tx) => importer.importSecondAccountsIn(tx, rows.slice(0, 1)))).toMatchObject({ accepted: 0, skipped: 1 });
    });

    it('imports socials rows: values of their form over what is stored, the others left out and counted', async () => {
      const player = newPlayer();
      await postLinks([{ id: newId(), uuid: player.uuid, homeUrl: 'https://kept.example/' }]);
      const rows = [{ sourceId: player.uuid, uuid: player.uuid, twitterId: 'tw_id', githubId: 'https://github.com/x', homeUrl: '' }];
      const counts = await inTx((importer, tx) => importer.importProfileLinksIn(tx, rows));
      expect(counts).toEqual({ accepted: 1, skipped: 0, refused: [], droppedValues: 1 });
      await expect(reader.profileLinks(player.uuid)).resolves.toEqual({ twitterId: 'tw_id', githubId: null, homeUrl: 'https://kept.example/' });
      expect(await inTx((importer, tx) => importer.importProfileLinksIn(tx, rows))).toMatchObject({ accepted: 0, skipped: 1 });

      const stranger = newPlayer();
      expect(await inTx((importer, tx) => importer.importProfileLinksIn(tx, [{ sourceId: 's', uuid: stranger.uuid, twitterId: null, githubId: 'gh', homeUrl: 'http://x.example' }]))).toMatchObject({ accepted: 1 });
      expect(await players.findByUuid(stranger.uuid)).toMatchObject({ uuid: stranger.uuid, mcid: null });
      await expect(reader.profileLinks(stranger.uuid)).resolves.toEqual({ twitterId: null, githubId: 'gh', homeUrl: 'http://x.example' });
    });
  });
});
