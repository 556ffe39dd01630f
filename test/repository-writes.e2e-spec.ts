import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiKeysRepository } from '../src/api-keys/api-keys.repository';
import { ChatAccountsRepository } from '../src/chat-accounts/chat-accounts.repository';
import { BanlistRepository } from '../src/banlist-sync/banlist.repository';
import { SyncLeasesRepository } from '../src/banlist-sync/sync-leases.repository';
import { SyncRunsRepository } from '../src/banlist-sync/sync-runs.repository';
import { CitiesRepository } from '../src/cities/cities.repository';
import { CityAuditRepository } from '../src/cities/city-audit.repository';
import { CityRequestsRepository } from '../src/cities/city-requests.repository';
import type { CityRecord } from '../src/cities/city.records';
import { ClubAccountsRepository } from '../src/club/club-accounts.repository';
import { TokensRepository } from '../src/club/tokens.repository';
import { ConsoleSessionsRepository } from '../src/console-sessions/console-sessions.repository';
import { DataTopic, DataVersions } from '../src/database/data-versions';
import type { Transaction } from '../src/database/transaction';
import { UnitOfWork } from '../src/database/unit-of-work';
import { EventsRepository } from '../src/events/events.repository';
import { EvidenceRepository } from '../src/evidence/evidence.repository';
import { WebhookDeliveriesRepository } from '../src/events/webhook-deliveries.repository';
import { WebhooksRepository } from '../src/events/webhooks.repository';
import { CommunityBanlistBansRepository } from '../src/community-bans/community-banlist-bans.repository';
import { OriginalImportRepository } from '../src/original-import/original-import.repository';
import { MiniGamesRepository } from '../src/mini-games/mini-games.repository';
import { RecordHistoryRepository } from '../src/moderation/record-history.repository';
import { RecordNotesRepository } from '../src/moderation/record-notes.repository';
import { AwayRepository } from '../src/play-time/away.repository';
import { PlaySessionsRepository, type NewSession } from '../src/play-time/play-sessions.repository';
import { PlayTimeReader } from '../src/play-time/play-time.reader';
import { PlayTotalsRepository } from '../src/play-time/play-totals.repository';
import { PlayersRepository } from '../src/players/players.repository';
import { PunishmentsRepository, type NewPunishment } from '../src/punishments/punishments.repository';
import { UserKeysRepository } from '../src/user-keys/user-keys.repository';
import { AchievementsRepository } from '../src/users/achievements.repository';
import { LoginsRepository } from '../src/users/logins.repository';
import { PlayerGroupsRepository } from '../src/player-groups/player-groups.repository';
import { LoginTextsRepository } from '../src/votes/login-texts.repository';
import { VotesRepository } from '../src/votes/votes.repository';
import { newPlayer, TestApp } from './support/test-app';
import { square } from './support/cities';

/*
 * Every write method of every repository, walked (docs/design-and-performance.md, "One way to
 * read, one way to write"): each one runs inside UnitOfWork.transaction, must bump exactly the
 * data_versions topics its table feeds (no more, no less), and its change must be visible to the
 * next read — the public cached read where there is one. The topics come from the docs' table
 * → repository → topics table, parsed here, so the docs and the code cannot drift apart; and the
 * list of methods comes from the repositories' prototypes, so a new write method (or a new
 * repository) fails this file until it has a case here.
 */

const TOPICS: readonly DataTopic[] = ['cities', 'city-owners', 'players', 'banlist', 'mini-games', 'votes'];
const SRC = join(__dirname, '..', 'src');
const DOCS = join(__dirname, '..', 'docs', 'design-and-performance.md');

/** One row of the docs' ownership table. */
interface OwnershipRow {
  tables: string[];
  writer: string;
  topics: DataTopic[];
}

function parseOwnershipTable(markdown: string): OwnershipRow[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\| Table \| Writing repository \| Topics bumped \|/.test(line));
  if (header < 0) {
    throw new Error('docs/design-and-performance.md has no "| Table | Writing repository | Topics bumped |" table');
  }
  const rows: OwnershipRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) {
      break;
    }
    const [tables, writer, topics] = line.split('|').slice(1, 4).map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]));
    rows.push({ tables, writer: writer[0], topics: topics.filter((topic): topic is DataTopic => (TOPICS as string[]).includes(topic)) });
  }
  return rows;
}

/** Every class named `…Repository` exported by a `*.repository.ts` under src/ (the house naming rule for repositories). */
async function repositoryClasses(): Promise<Array<{ file: string; cls: new (...args: never[]) => object }>> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.repository.ts'));
  const found: Array<{ file: string; cls: new (...args: never[]) => object }> = [];
  for (const file of files.sort()) {
    const exports = (await import(join(SRC, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (typeof value === 'function' && /Repository$/.test(value.name)) {
        found.push({ file, cls: value as new (...args: never[]) => object });
      }
    }
  }
  return found;
}

function ownMethods(cls: new (...args: never[]) => object): string[] {
  const prototype = cls.prototype as object;
  return Object.getOwnPropertyNames(prototype).filter((name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(prototype, name)?.value === 'function');
}

/** Runs the one write of a case in its own transaction, with the topic stamps taken just before and after. */
type Write = <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>;

interface WriteCase {
  /** The tables the call writes (as the docs' table names them), whose rows say who writes them and what they feed. */
  tables: string[];
  /** What this call must bump: a subset of the docs' topics for the table (the docs list every topic any write can bump). */
  bumps: DataTopic[];
  /** Seeds, calls `write` exactly once, then shows that the next read sees the change. */
  run(write: Write): Promise<void>;
}

describe('every repository write method bumps what its table feeds (e2e)', () => {
  let app: TestApp;
  let uow: UnitOfWork;
  let versions: DataVersions;
  let gameServerKey: string;
  let operatorKey: string;
  let sequence = 0;
  const unique = (prefix: string): string => `${prefix}${++sequence}${randomBytes(3).toString('hex')}`;
  const hash = (text: string): string => createHash('sha256').update(text).digest('hex');

  beforeAll(async () => {
    app = await TestApp.start();
    uow = app.app.get(UnitOfWork);
    versions = app.app.get(DataVersions);
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
  }, 60_000);

  const repo = <T>(cls: new (...args: never[]) => T): T => app.app.get(cls, { strict: false });
  // Provided only by the CLI's import module (the server never imports); it has no dependencies.
  const importLinks = new OriginalImportRepository();
  const communityBans = (): CommunityBanlistBansRepository => repo(CommunityBanlistBansRepository);
  const read = <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => uow.transaction(work);

  // ---- seeds (through the API or the repositories; each seed's own bumps happen before the stamp) ----

  /** A registered city of a fresh owner, created through the API as an operator. */
  async function seedCity(): Promise<{ id: number; owner: { uuid: string; mcid: string }; record: CityRecord }> {
    const owner = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, owner.uuid, owner.mcid);
    const x = 100_000 + sequence * 1000;
    sequence += 1;
    const created = await app.post<{ cityId: number }>(
      '/cities/create',
      {
        usertoken: userkey,
        cityName: unique('Walk City '),
        cityNameKana: `うぉーく${'あいうえおかきくけこ'[sequence % 10]}${'あいうえおかきくけこ'[Math.floor(sequence / 10) % 10]}`,
        summary: 'walk',
        origin: 'walk',
        corners: square(x, 0),
        count: 100,
        recaptcha: 'pass',
        force: true,
      },
      { headers: { 'x-api-key': operatorKey } },
    );
    expect(created.status).toBe(201);
    const id = created.body.cityId;
    const record = await read((tx) => repo(CitiesRepository).getRecord(tx, id));
    return { id, owner, record: record! };
  }

  /** A city record that breaks no unique key of the seeded one. */
  function otherCity(record: CityRecord): Omit<CityRecord, 'id'> {
    const rest: Omit<CityRecord, 'id'> & { id?: number } = { ...record };
    delete rest.id;
    const name = unique('Copy ');
    const shift = 10_000_000 + sequence * 1000;
    return {
      ...rest,
      name,
      nameKey: name.toLowerCase(),
      nameKana: unique('こぴー'),
      kanaKey: unique('こぴー'),
      regionName: null,
      regionKey: null,
      corners: record.corners.map((point) => ({ ...point, x: point.x + shift })),
      minX: record.minX + shift,
      maxX: record.maxX + shift,
    };
  }

  /** A punishment of a fresh player, not stored yet. */
  function newPunishment(): NewPunishment {
    const player = newPlayer();
    return { kind: 'jail', sourceId: unique('p'), uuid: player.uuid, mcid: player.mcid, reason: 'walk', testment: null, issuedBy: 'CONSOLE', issuedAt: new Date(), active: true, liftedAt: null };
  }

  /** A game-server session of a fresh player, not stored yet: started an hour ago, counted to 10 minutes later, open. */
  function newSession(reporter: string | null = null): NewSession {
    const startedAt = Math.floor(Date.now() / 1000) - 3600;
    return { origin: 'game-server', reporter, sourceId: unique('session-'), uuid: newPlayer().uuid, startedAt, countedUntil: startedAt + 600, endedAt: null };
  }

  /** The stored session of this id, read in a transaction of its own (undefined: none). */
  const storedSession = async (sourceId: string) => (await read((tx) => repo(PlaySessionsRepository).getForUpdate(tx, 'game-server', [sourceId]))).get(sourceId);

  /** A player `/users` finds (a login now), not owning a city. */
  async function seedSeenPlayer(): Promise<{ uuid: string; mcid: string }> {
    const player = newPlayer();
    await read((tx) => repo(PlayersRepository).upsertFromLogins(tx, [{ uuid: player.uuid, firstLogin: new Date(), latest: { mcid: player.mcid, loggedInAt: new Date(), permission: null } }]));
    return player;
  }

  /** A player known by uuid only (no name, no login), as votes or groups reported first make one. */
  async function seedBarePlayer(): Promise<string> {
    const { uuid } = newPlayer();
    await read((tx) => repo(PlayersRepository).createBareIfAbsent(tx, [uuid], new Date()));
    return uuid;
  }

  async function seedAccount(): Promise<{ uuid: string; accountId: number; tokenId: number; tokenHash: string }> {
    const player = newPlayer();
    const tokenHash = hash(unique('token'));
    const ids = await read(async (tx) => {
      await repo(PlayersRepository).createIfAbsent(tx, player.uuid, player.mcid, new Date());
      const accountId = await repo(ClubAccountsRepository).create(tx, player.uuid, 'hash-1', new Date());
      const tokenId = await repo(TokensRepository).create(tx, accountId, tokenHash, new Date(), new Date(Date.now() + 3_600_000));
      await repo(ClubAccountsRepository).setCurrentToken(tx, accountId, tokenId);
      return { accountId, tokenId };
    });
    return { uuid: player.uuid, tokenHash, ...ids };
  }

  /**
   * A webhook with nothing to send. The server's webhook worker runs during this file: it claims
   * only active webhooks with work, so a seeded webhook is inactive unless the case needs a lease
   * (and then has no pending delivery and its cursor at the latest event).
   */
  async function seedWebhook(options: { active?: boolean } = {}): Promise<number> {
    return read(async (tx) => {
      const cursorEventId = await repo(EventsRepository).lastEventIdIn(tx);
      const id = await repo(WebhooksRepository).insert(tx, { url: 'http://127.0.0.1:9/hook', events: ['city.changed'], format: 'json', secret: 'walk-secret', createdAt: new Date(), cursorEventId });
      if (!options.active) {
        await repo(WebhooksRepository).update(tx, id, { active: false });
      }
      return id;
    });
  }

  async function seedEvent(): Promise<number> {
    return read((tx) => repo(EventsRepository).append(tx, 'city.changed', { walk: true }, new Date()));
  }

  async function seedDelivery(webhookId: number): Promise<string> {
    const eventId = await seedEvent();
    const deliveryId = unique('delivery-');
    await read((tx) => repo(WebhookDeliveriesRepository).enqueue(tx, { webhookId, deliveryId, eventId, type: 'city.changed', now: new Date() }));
    return deliveryId;
  }

  async function seedConsoleSession(lastSeenAt = new Date()): Promise<{ id: number; sessionHash: string }> {
    const sessionHash = hash(unique('console'));
    await read((tx) =>
      repo(ConsoleSessionsRepository).create(tx, { sessionHash, apiKeyId: null, clubTokenId: null, createdAt: lastSeenAt, lastSeenAt, expiresAt: new Date(Date.now() + 3_600_000) }),
    );
    const session = await repo(ConsoleSessionsRepository).getByHash(sessionHash);
    return { id: session!.id, sessionHash };
  }

  async function seedAchievement(): Promise<number> {
    const id = 900_000 + sequence++;
    await read((tx) => repo(AchievementsRepository).insertDefinitions(tx, [{ id, title: 'Walker', description: 'walks', hidden: false }], new Date()));
    return id;
  }

  const user = (uuid: string) => app.get<{ data: { mcid: string; chatid: string | null; lastLogin: string | null } }>(`/users/${uuid}`);
  const city = (id: number) => app.get<{ data: { name: string; summary: string | null; owner: { mcid: string | null; chatid: string | null } } }>('/cities', { query: { id } });
  const pendingOf = (cityId: number) => repo(CityRequestsRepository).getViews({ status: 'pending', cityId }, { after: 0, limit: 10 });

  /** A chat id (18 digits) of its own per sequence number. */
  const chatidOf = (n: number): string => `7${String(n).padStart(17, '0')}`;

  // ---- the cases: every own method of every repository is a read (or a private step) or has cases ----

  const READS: Record<string, string[]> = {
    ApiKeysRepository: ['getById', 'getAll', 'getByHash'],
    BanlistRepository: ['getUser', 'getBan', 'getKnownPlayerUuids', 'getBansOfPlayer'],
    SyncLeasesRepository: ['getLease'],
    SyncRunsRepository: ['getRecentRuns'],
    CitiesRepository: ['getAll', 'getById', 'getByNameKey', 'getByIdAndNameKey', 'getByOwner', 'exists', 'getRecord', 'getViewIn', 'getRegisteredRecord', 'getNameHolder', 'getClaimedRegionsInBox', 'countClaimedByOwner', 'getStatesByOwner'],
    CityAuditRepository: ['getByCity'],
    CityRequestsRepository: ['getViews', 'getViewsByRequester', 'viewPage', 'getViewIn', 'getById', 'getPending', 'getPendingOfCity', 'getPendingRegionsInBox'],
    // lockExisting reads (and on MySQL locks) the row; it changes nothing.
    ClubAccountsRepository: ['existsForPlayer', 'getCredentials', 'lockExisting'],
    TokensRepository: ['getSession', 'getSessionById'],
    ConsoleSessionsRepository: ['getByHash', 'count'],
    EventsRepository: ['eventsAfter', 'lastEventId', 'lastEventIdIn', 'eventsAfterIn', 'eventById'],
    WebhookDeliveriesRepository: ['head', 'delivery', 'lastAttemptNumber', 'attempts'],
    WebhooksRepository: ['webhooks', 'webhook', 'webhookIn', 'webhooksWithWork', 'heldLeases'],
    OriginalImportRepository: ['getLink', 'nextId', 'getAccount', 'getAchievement', 'getUnlockTime', 'hasLoginSince'],
    // holders and getHeldIn read (and on MySQL lock) rows; they change nothing.
    CommunityBanlistBansRepository: ['mirrorTimes', 'holders', 'list', 'count', 'listForPlayer', 'getByBanId', 'hasAnyForPlayer', 'getHeldIn'],
    EvidenceRepository: ['listFor', 'namesFor', 'getContent', 'countsFor'],
    PlayersRepository: ['getByUuid', 'getByMcid', 'getByChatid', 'getMcidsByPrefix', 'getLoggedIn', 'getNames', 'getInTransaction', 'getWithoutLoginIn', 'getChatHolder', 'getOwnerNames', 'searchByMcidPrefix'],
    UserKeysRepository: ['getByHash'],
    // getLinksForUpdate reads (and on MySQL locks) the row; it changes nothing.
    ChatAccountsRepository: ['getLinksForUpdate', 'getAccount', 'getLatestSecondAccount', 'getLinks'],
    AchievementsRepository: ['getDefinedIds', 'getUnlocked', 'count'],
    LoginsRepository: ['getFirstLoginSince', 'getRecentOf', 'getLatestOfRecentPlayers'],
    PunishmentsRepository: ['listForPlayer', 'hasAnyForPlayer', 'getBySourceIn', 'getByIdIn', 'listOfKind', 'countOfKind', 'getNamed', 'listNamedForPlayer', 'getById', 'list'],
    // getNoteIn reads (and on MySQL locks) the row; it changes nothing.
    RecordNotesRepository: ['getNote', 'getIdsWithNotes', 'getNoteIn'],
    RecordHistoryRepository: ['getOf'],
    // ladder reads a category's scores through the cache of topic mini-games.
    MiniGamesRepository: ['recentForPlayer', 'ladder'],
    // getForUpdate and getImportedForUpdate read (and on MySQL lock) rows; they change nothing.
    PlaySessionsRepository: ['getForUpdate', 'getStoredIds', 'getLatestStart'],
    PlayTotalsRepository: ['getImportedForUpdate', 'getDays', 'getEraTotals'],
    AwayRepository: ['getStoredIds', 'getTotal'],
    // The lock… methods read (and on MySQL lock) rows; they change nothing.
    // getCountLevels reads a site's levels through the cache of topic votes.
    VotesRepository: ['getStoredVoteIds', 'lockTotals', 'getCounts', 'getCountLevels'],
    LoginTextsRepository: ['getStoredReportIds', 'lockCurrent'],
    PlayerGroupsRepository: ['getStoredReportIds', 'lockCurrent', 'getReport'],
  };

  /** Private steps of a public write, covered by the cases of the methods that call them. */
  const PRIVATE_STEPS: Record<string, string[]> = {
    EventsRepository: ['nextEventId'],
    WebhooksRepository: ['time'],
    PlayersRepository: ['changingNames', 'insertSummaries'],
    PunishmentsRepository: ['values'],
    PlayTotalsRepository: ['addToEras'],
  };

  const WRITES: Record<string, Record<string, WriteCase[]>> = {
    CitiesRepository: {
      insert: [
        {
          tables: ['cities'],
          bumps: ['cities'],
          async run(write) {
            const { record } = await seedCity();
            const copy = otherCity(record);
            const id = await write((tx) => repo(CitiesRepository).insert(tx, copy));
            expect((await city(id)).body.data.name).toBe(copy.name);
          },
        },
      ],
      insertWithId: [
        {
          tables: ['cities'],
          bumps: ['cities'],
          async run(write) {
            const { record } = await seedCity();
            const id = record.id + 50_000 + sequence;
            expect((await city(id)).status).toBe(404); // cached "not found"
            const copy = otherCity(record);
            await write((tx) => repo(CitiesRepository).insertWithId(tx, { ...copy, id }));
            expect((await city(id)).body.data.name).toBe(copy.name);
          },
        },
      ],
      save: [
        {
          tables: ['cities'],
          bumps: ['cities'],
          async run(write) {
            const { id, record } = await seedCity();
            expect((await city(id)).body.data.summary).toBe('walk');
            await write((tx) => repo(CitiesRepository).save(tx, { ...record, summary: 'walked again' }));
            expect((await city(id)).body.data.summary).toBe('walked again');
          },
        },
      ],
    },
    CityRequestsRepository: {
      insert: [
        {
          tables: ['city_requests'],
          bumps: ['cities'],
          async run(write) {
            const { id: cityId, owner } = await seedCity();
            expect((await pendingOf(cityId)).data).toHaveLength(0);
            const requestId = await write((tx) =>
              repo(CityRequestsRepository).insert(tx, {
                cityId,
                type: 'update',
                status: 'pending',
                pendingKey: `${cityId}:update`,
                changes: { summary: 'requested' },
                requesterUuid: owner.uuid,
                remarks: null,
                minX: null,
                maxX: null,
                minZ: null,
                maxZ: null,
                createdAt: new Date(),
                decidedAt: null,
                decidedBy: null,
                rejectReason: null,
              }),
            );
            expect((await pendingOf(cityId)).data.map((request) => request.id)).toEqual([requestId]);
          },
        },
      ],
      insertWithId: [
        {
          tables: ['city_requests'],
          bumps: ['cities'],
          async run(write) {
            const { id: cityId, owner } = await seedCity();
            const requestId = 700_000 + sequence++;
            await write((tx) =>
              repo(CityRequestsRepository).insertWithId(tx, {
                id: requestId,
                cityId,
                type: 'update',
                status: 'pending',
                pendingKey: `${cityId}:update`,
                changes: { origin: 'requested' },
                requesterUuid: owner.uuid,
                remarks: null,
                minX: null,
                maxX: null,
                minZ: null,
                maxZ: null,
                createdAt: new Date(),
                decidedAt: null,
                decidedBy: null,
                rejectReason: null,
              }),
            );
            expect((await pendingOf(cityId)).data.map((request) => request.id)).toEqual([requestId]);
          },
        },
      ],
      decide: [
        {
          tables: ['city_requests'],
          bumps: ['cities'],
          async run(write) {
            const { id: cityId, owner } = await seedCity();
            const requestId = await read((tx) =>
              repo(CityRequestsRepository).insert(tx, {
                cityId,
                type: 'update',
                status: 'pending',
                pendingKey: `${cityId}:update`,
                changes: { summary: 'to reject' },
                requesterUuid: owner.uuid,
                remarks: null,
                minX: null,
                maxX: null,
                minZ: null,
                maxZ: null,
                createdAt: new Date(),
                decidedAt: null,
                decidedBy: null,
                rejectReason: null,
              }),
            );
            await write((tx) => repo(CityRequestsRepository).decide(tx, requestId, { status: 'rejected', decidedAt: new Date(), decidedBy: 'walker', rejectReason: 'no' }));
            expect((await pendingOf(cityId)).data).toHaveLength(0);
            const rejected = await repo(CityRequestsRepository).getViews({ status: 'rejected', cityId }, { after: 0, limit: 10 });
            expect(rejected.data.map((request) => request.id)).toEqual([requestId]);
          },
        },
      ],
    },
    CityAuditRepository: {
      insert: [
        {
          tables: ['city_audit'],
          bumps: [],
          async run(write) {
            const { id: cityId } = await seedCity();
            const before = (await repo(CityAuditRepository).getByCity(cityId, { after: 0, limit: 100 })).data.length;
            await write((tx) => repo(CityAuditRepository).insert(tx, { cityId, requestId: null, actor: 'walker', action: 'update_forced', before: null, after: null, at: new Date() }));
            const after = (await repo(CityAuditRepository).getByCity(cityId, { after: 0, limit: 100 })).data;
            expect(after).toHaveLength(before + 1);
            expect(after.at(-1)).toMatchObject({ actor: 'walker' });
          },
        },
      ],
    },
    ChatAccountsRepository: {
      addReceipt: [
        {
          tables: ['chat_ingest_receipts'],
          bumps: [],
          async run(write) {
            const sourceId = unique('receipt-');
            expect(await write((tx) => repo(ChatAccountsRepository).addReceipt(tx, 'chat-bot', 'chat-account', sourceId, new Date()))).toBe(true);
            expect(await read((tx) => repo(ChatAccountsRepository).addReceipt(tx, 'chat-bot', 'chat-account', sourceId, new Date()))).toBe(false);
          },
        },
      ],
      saveReportedAccount: [
        {
          tables: ['chat_accounts'],
          bumps: [],
          async run(write) {
            const chatid = chatidOf(sequence++);
            await write((tx) => repo(ChatAccountsRepository).saveReportedAccount(tx, { chatid, name: 'walker', discriminator: '0', avatarUrl: null, reportedAt: new Date() }, new Date()));
            expect(await repo(ChatAccountsRepository).getAccount(chatid)).toEqual({ chatid, name: 'walker', discriminator: '0', avatarUrl: null });
          },
        },
      ],
      addImportedAccount: [
        {
          tables: ['chat_accounts'],
          bumps: [],
          async run(write) {
            const chatid = chatidOf(sequence++);
            await write((tx) => repo(ChatAccountsRepository).addImportedAccount(tx, { chatid, name: 'imported', discriminator: '1234' }, new Date()));
            expect(await repo(ChatAccountsRepository).getAccount(chatid)).toMatchObject({ name: 'imported', discriminator: '1234' });
          },
        },
      ],
      addSecondAccount: [
        {
          tables: ['chat_second_accounts'],
          bumps: [],
          async run(write) {
            const main = chatidOf(sequence++);
            const chatid = chatidOf(sequence++);
            const record = { origin: 'chat-bot' as const, sourceId: unique('second-'), chatid, mainChatid: main, registeredAt: new Date() };
            expect(await write((tx) => repo(ChatAccountsRepository).addSecondAccount(tx, record, new Date()))).toBe(true);
            expect(await repo(ChatAccountsRepository).getLatestSecondAccount(main)).toMatchObject({ chatid });
          },
        },
      ],
      saveLinks: [
        {
          tables: ['player_profile_links'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            const links = { twitterId: 'walker', githubId: null, homeUrl: 'https://walk.example/' };
            await write((tx) => repo(ChatAccountsRepository).saveLinks(tx, uuid, links, new Date()));
            expect(await repo(ChatAccountsRepository).getLinks(uuid)).toEqual(links);
          },
        },
      ],
    },
    PlayersRepository: {
      createIfAbsent: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = newPlayer();
            expect(await write((tx) => repo(PlayersRepository).createIfAbsent(tx, player.uuid, player.mcid, new Date()))).toBe(true);
            expect((await repo(PlayersRepository).getByUuid(player.uuid))?.mcid).toBe(player.mcid);
          },
        },
      ],
      createBareIfAbsent: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = newPlayer();
            expect(await write((tx) => repo(PlayersRepository).createBareIfAbsent(tx, [player.uuid, player.uuid], new Date()))).toBe(1);
            expect(await repo(PlayersRepository).getByUuid(player.uuid)).toMatchObject({ uuid: player.uuid, mcid: null, firstLogin: null });
          },
        },
      ],
      createNamedIfAbsent: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const [first, second] = [newPlayer(), newPlayer()];
            expect(await write((tx) => repo(PlayersRepository).createNamedIfAbsent(tx, [second, first], new Date()))).toBe(2);
            expect(await repo(PlayersRepository).getByMcid(first.mcid.toLowerCase())).toMatchObject({ uuid: first.uuid, mcid: first.mcid, firstLogin: null });
            expect(await read((tx) => repo(PlayersRepository).getWithoutLoginIn(tx, [first.uuid, newPlayer().uuid]))).toEqual([{ uuid: first.uuid, mcid: first.mcid }]);
          },
        },
      ],
      rename: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = await seedSeenPlayer();
            expect((await user(player.uuid)).body.data.mcid).toBe(player.mcid);
            await write((tx) => repo(PlayersRepository).rename(tx, player.uuid, `${player.mcid}_x`));
            expect((await user(player.uuid)).body.data.mcid).toBe(`${player.mcid}_x`);
          },
        },
        {
          // A city owner's new name is what a city view shows.
          tables: ['players'],
          bumps: ['players', 'city-owners'],
          async run(write) {
            const { id, owner } = await seedCity();
            expect((await city(id)).body.data.owner.mcid).toBe(owner.mcid);
            await write((tx) => repo(PlayersRepository).rename(tx, owner.uuid, `${owner.mcid}_y`));
            expect((await city(id)).body.data.owner.mcid).toBe(`${owner.mcid}_y`);
          },
        },
      ],
      setChatid: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = await seedSeenPlayer();
            expect((await user(player.uuid)).body.data.chatid).toBeNull();
            const chatid = String(100_000_000_000_000_000n + BigInt(sequence++));
            await write((tx) => repo(PlayersRepository).setChatid(tx, player.uuid, chatid));
            expect((await user(player.uuid)).body.data.chatid).toBe(chatid);
          },
        },
        {
          tables: ['players'],
          bumps: ['players', 'city-owners'],
          async run(write) {
            const { id, owner } = await seedCity();
            expect((await city(id)).body.data.owner.chatid).toBeNull();
            const chatid = String(200_000_000_000_000_000n + BigInt(sequence++));
            await write((tx) => repo(PlayersRepository).setChatid(tx, owner.uuid, chatid));
            expect((await city(id)).body.data.owner.chatid).toBe(chatid);
          },
        },
      ],
      upsertFromLogins: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = newPlayer();
            expect((await user(player.uuid)).status).toBe(404); // cached "not found"
            await write((tx) => repo(PlayersRepository).upsertFromLogins(tx, [{ uuid: player.uuid, firstLogin: new Date(), latest: { mcid: player.mcid, loggedInAt: new Date(), permission: null } }]));
            expect((await user(player.uuid)).body.data.mcid).toBe(player.mcid);
          },
        },
        {
          // An owner logging in under a new name.
          tables: ['players'],
          bumps: ['players', 'city-owners'],
          async run(write) {
            const { id, owner } = await seedCity();
            expect((await city(id)).body.data.owner.mcid).toBe(owner.mcid);
            await write((tx) =>
              repo(PlayersRepository).upsertFromLogins(tx, [{ uuid: owner.uuid, firstLogin: new Date(), latest: { mcid: `${owner.mcid}_z`, loggedInAt: new Date(), permission: null } }]),
            );
            expect((await city(id)).body.data.owner.mcid).toBe(`${owner.mcid}_z`);
          },
        },
      ],
      insertAbsentFromLogins: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = newPlayer();
            expect((await user(player.uuid)).status).toBe(404);
            await write((tx) =>
              repo(PlayersRepository).insertAbsentFromLogins(tx, [{ uuid: player.uuid, firstLogin: new Date(), latest: { mcid: player.mcid, loggedInAt: new Date(), permission: null } }]),
            );
            expect((await user(player.uuid)).body.data.mcid).toBe(player.mcid);
          },
        },
      ],
      settleFromLogins: [
        {
          tables: ['players'],
          bumps: ['players'],
          async run(write) {
            const player = await seedSeenPlayer();
            expect((await user(player.uuid)).body.data.mcid).toBe(player.mcid);
            await read((tx) => repo(LoginsRepository).insertLogins(tx, [{ uuid: player.uuid, mcid: `${player.mcid}_s`, loggedInAt: new Date(Date.now() + 60_000), permission: null }]));
            await write((tx) => repo(PlayersRepository).settleFromLogins(tx, [player.uuid]));
            expect((await user(player.uuid)).body.data.mcid).toBe(`${player.mcid}_s`);
          },
        },
        {
          tables: ['players'],
          bumps: ['players', 'city-owners'],
          async run(write) {
            const { id, owner } = await seedCity();
            expect((await city(id)).body.data.owner.mcid).toBe(owner.mcid);
            await read((tx) => repo(LoginsRepository).insertLogins(tx, [{ uuid: owner.uuid, mcid: `${owner.mcid}_t`, loggedInAt: new Date(Date.now() + 60_000), permission: null }]));
            await write((tx) => repo(PlayersRepository).settleFromLogins(tx, [owner.uuid]));
            expect((await city(id)).body.data.owner.mcid).toBe(`${owner.mcid}_t`);
          },
        },
      ],
    },
    VotesRepository: {
      insertVotes: [
        {
          tables: ['votes'],
          bumps: [],
          async run(write) {
            const player = await seedBarePlayer();
            const id = unique('vote-');
            expect(await write((tx) => repo(VotesRepository).insertVotes(tx, 'game-server', [{ id, uuid: player, site: 'minecraft.jp', votedAt: new Date() }], new Date()))).toBe(1);
            expect([...(await read((tx) => repo(VotesRepository).getStoredVoteIds(tx, 'game-server', [id])))]).toEqual([id]);
          },
        },
      ],
      writeTotals: [
        {
          tables: ['vote_totals'],
          bumps: [],
          async run(write) {
            const player = await seedBarePlayer();
            await write((tx) => repo(VotesRepository).writeTotals(tx, [{ uuid: player, site: 'minecraft.jp', importedCount: 4, recordedCount: 3, voteCount: 7, lastVotedAt: null }]));
            expect((await repo(VotesRepository).getCounts(player, ['minecraft.jp', 'monocraft.net'])).firstCount).toBe(7);
          },
        },
      ],
      applyCountLevels: [
        {
          tables: ['vote_count_players'],
          bumps: ['votes'],
          async run(write) {
            const site = unique('walk.site-');
            // Read (and cached) before the write: the bump makes the next read see the new level.
            expect(await repo(VotesRepository).getCountLevels(site)).toEqual({ counts: [], playersAtOrAbove: [] });
            await write((tx) => repo(VotesRepository).applyCountLevels(tx, [{ site, voteCount: 5, delta: 2 }]));
            expect(await repo(VotesRepository).getCountLevels(site)).toEqual({ counts: [5], playersAtOrAbove: [2] });
          },
        },
      ],
    },
    LoginTextsRepository: {
      insertReports: [
        {
          tables: ['login_text_reports'],
          bumps: [],
          async run(write) {
            const player = await seedBarePlayer();
            const id = unique('text-');
            expect(await write((tx) => repo(LoginTextsRepository).insertReports(tx, 'game-server', [{ id, uuid: player, text: 'walk', at: new Date() }], new Date()))).toBe(1);
            expect([...(await read((tx) => repo(LoginTextsRepository).getStoredReportIds(tx, 'game-server', [id])))]).toEqual([id]);
          },
        },
      ],
      writeCurrent: [
        {
          tables: ['login_texts'],
          bumps: [],
          async run(write) {
            const player = await seedBarePlayer();
            await write((tx) => repo(LoginTextsRepository).writeCurrent(tx, [{ uuid: player, text: 'Walker', origin: 'game-server', reportedAt: new Date() }], new Date()));
            expect((await repo(VotesRepository).getCounts(player, ['minecraft.jp', 'monocraft.net'])).loginText).toBe('Walker');
          },
        },
      ],
    },
    PlayerGroupsRepository: {
      insertReports: [
        {
          tables: ['player_group_reports'],
          bumps: [],
          async run(write) {
            const player = await seedBarePlayer();
            const id = unique('group-');
            expect(await write((tx) => repo(PlayerGroupsRepository).insertReports(tx, 'game-server', [{ id, uuid: player, group: 'walker', expiresAt: null, at: new Date() }], new Date()))).toBe(1);
            expect([...(await read((tx) => repo(PlayerGroupsRepository).getStoredReportIds(tx, 'game-server', [id])))]).toEqual([id]);
          },
        },
      ],
      writeCurrent: [
        {
          tables: ['player_groups'],
          bumps: [],
          async run(write) {
            const player = await seedBarePlayer();
            await write((tx) => repo(PlayerGroupsRepository).writeCurrent(tx, [{ uuid: player, group: 'walker', expiresAt: null, reportedAt: new Date(), origin: 'game-server' }], new Date()));
            expect((await repo(PlayerGroupsRepository).getReport(player))?.group).toBe('walker');
          },
        },
      ],
    },
    LoginsRepository: {
      insertLogins: [
        {
          tables: ['login_records'],
          bumps: [],
          async run(write) {
            const player = await seedSeenPlayer();
            const at = new Date(Date.now() + 3_600_000);
            expect(await repo(LoginsRepository).getFirstLoginSince(player.uuid, at)).toBeNull();
            expect(await write((tx) => repo(LoginsRepository).insertLogins(tx, [{ uuid: player.uuid, mcid: player.mcid, loggedInAt: at, permission: null }]))).toBe(1);
            expect((await repo(LoginsRepository).getFirstLoginSince(player.uuid, at))?.getTime()).toBe(at.getTime());
          },
        },
      ],
    },
    AchievementsRepository: {
      insertDefinitions: [
        {
          tables: ['achievements'],
          bumps: [],
          async run(write) {
            const before = await repo(AchievementsRepository).count();
            await write((tx) => repo(AchievementsRepository).insertDefinitions(tx, [{ id: 800_000 + sequence++, title: 'New', description: 'new', hidden: false }], new Date()));
            expect(await repo(AchievementsRepository).count()).toBe(before + 1);
          },
        },
      ],
      updateDefinition: [
        {
          tables: ['achievements'],
          bumps: [],
          async run(write) {
            const id = await seedAchievement();
            const player = await seedSeenPlayer();
            await read((tx) => repo(AchievementsRepository).insertUnlocks(tx, [{ uuid: player.uuid, achievementId: id, unlockedAt: new Date() }], new Date()));
            await write((tx) => repo(AchievementsRepository).updateDefinition(tx, { id, title: 'Renamed', description: 'walks on', hidden: false }, new Date()));
            expect(await repo(AchievementsRepository).getUnlocked(player.uuid)).toEqual([expect.objectContaining({ id, title: 'Renamed' })]);
          },
        },
      ],
      insertUnlocks: [
        {
          tables: ['achievement_unlocks'],
          bumps: [],
          async run(write) {
            const id = await seedAchievement();
            const player = await seedSeenPlayer();
            expect(await repo(AchievementsRepository).getUnlocked(player.uuid)).toEqual([]);
            expect(await write((tx) => repo(AchievementsRepository).insertUnlocks(tx, [{ uuid: player.uuid, achievementId: id, unlockedAt: new Date() }], new Date()))).toBe(1);
            expect(await repo(AchievementsRepository).getUnlocked(player.uuid)).toEqual([expect.objectContaining({ id })]);
          },
        },
      ],
    },
    PunishmentsRepository: {
      insertOne: [
        {
          tables: ['punishments'],
          bumps: [],
          async run(write) {
            const punishment = newPunishment();
            expect(await repo(PunishmentsRepository).hasAnyForPlayer(punishment.uuid)).toBe(false);
            const id = await write((tx) => repo(PunishmentsRepository).insertOne(tx, 'game-server', punishment));
            expect(await repo(PunishmentsRepository).listForPlayer(punishment.uuid)).toEqual([expect.objectContaining({ id, kind: 'jail', active: true })]);
          },
        },
      ],
      insertMany: [
        {
          tables: ['punishments'],
          bumps: [],
          async run(write) {
            const punishment = newPunishment();
            expect(await write((tx) => repo(PunishmentsRepository).insertMany(tx, 'original', [punishment, { ...punishment, sourceId: unique('p') }]))).toBe(2);
            expect(await repo(PunishmentsRepository).listForPlayer(punishment.uuid)).toHaveLength(2);
          },
        },
      ],
      lift: [
        {
          tables: ['punishments'],
          bumps: [],
          async run(write) {
            const punishment = newPunishment();
            const id = (await read((tx) => repo(PunishmentsRepository).insertOne(tx, 'game-server', punishment)))!;
            expect(await write((tx) => repo(PunishmentsRepository).lift(tx, id, new Date()))).toBe(true);
            expect(await repo(PunishmentsRepository).listForPlayer(punishment.uuid)).toEqual([expect.objectContaining({ id, active: false })]);
          },
        },
      ],
      liftByOperator: [
        {
          tables: ['punishments'],
          bumps: [],
          async run(write) {
            const punishment = newPunishment();
            const id = (await read((tx) => repo(PunishmentsRepository).insertOne(tx, 'game-server', punishment)))!;
            const lift = { liftedAt: new Date(), liftedBy: 'apikey:ops', reason: 'appeal' };
            expect(await write((tx) => repo(PunishmentsRepository).liftByOperator(tx, id, lift))).toBe(true);
            expect(await repo(PunishmentsRepository).getById(id)).toEqual(expect.objectContaining({ id, active: false, liftedBy: 'apikey:ops', liftReason: 'appeal' }));
            // A second lift matches nothing: the row decides between two operators.
            expect(await read((tx) => repo(PunishmentsRepository).liftByOperator(tx, id, lift))).toBe(false);
          },
        },
      ],
      confirmLift: [
        {
          tables: ['punishments'],
          bumps: [],
          async run(write) {
            const punishment = newPunishment();
            const id = (await read((tx) => repo(PunishmentsRepository).insertOne(tx, 'game-server', punishment)))!;
            // Nothing to confirm before an operator's lift.
            expect(await read((tx) => repo(PunishmentsRepository).confirmLift(tx, id, new Date()))).toBe(false);
            await read((tx) => repo(PunishmentsRepository).liftByOperator(tx, id, { liftedAt: new Date(), liftedBy: 'apikey:ops', reason: null }));
            const reportedAt = new Date('2026-11-02T00:00:00Z');
            expect(await write((tx) => repo(PunishmentsRepository).confirmLift(tx, id, reportedAt))).toBe(true);
            expect(await repo(PunishmentsRepository).getById(id)).toEqual(expect.objectContaining({ id, active: false, liftedBy: 'apikey:ops', liftConfirmedAt: reportedAt }));
          },
        },
      ],
    },
    RecordNotesRepository: {
      upsert: [
        {
          tables: ['record_notes'],
          bumps: [],
          async run(write) {
            const record = { kind: 'vban' as const, id: unique('') };
            await write((tx) => repo(RecordNotesRepository).upsert(tx, record, 'a note', 'apikey:ops', new Date()));
            expect(await repo(RecordNotesRepository).getNote(record)).toBe('a note');
            expect(await repo(RecordNotesRepository).getIdsWithNotes('vban', [record.id, 'other'])).toEqual(new Set([record.id]));
          },
        },
      ],
      delete: [
        {
          tables: ['record_notes'],
          bumps: [],
          async run(write) {
            const record = { kind: 'gban' as const, id: unique('') };
            await read((tx) => repo(RecordNotesRepository).upsert(tx, record, 'a note', 'apikey:ops', new Date()));
            expect(await write((tx) => repo(RecordNotesRepository).delete(tx, record))).toBe(true);
            expect(await repo(RecordNotesRepository).getNote(record)).toBeNull();
          },
        },
      ],
    },
    RecordHistoryRepository: {
      insert: [
        {
          tables: ['record_history'],
          bumps: [],
          async run(write) {
            const record = { kind: 'jail' as const, id: unique('') };
            await write((tx) => repo(RecordHistoryRepository).insert(tx, record, { actor: 'apikey:ops', action: 'note', detail: 'n', at: new Date('2026-11-01T00:00:00Z') }));
            expect(await repo(RecordHistoryRepository).getOf(record)).toEqual([{ at: '2026-11-01T00:00:00.000Z', actor: 'apikey:ops', action: 'note', detail: 'n' }]);
          },
        },
      ],
    },
    MiniGamesRepository: {
      insertMany: [
        {
          tables: ['minigame_results'],
          bumps: ['mini-games'],
          async run(write) {
            // A category of its own: another player's place in it is read (and its ladder cached) before the write.
            const matchTime = 500_000 + sequence++;
            const resultOf = (player: { uuid: string; mcid: string }, score: number) => ({
              sourceId: unique('pm'),
              uuid: player.uuid,
              mcid: player.mcid,
              success: 1,
              failure: 0,
              matchTime,
              realMatchTime: matchTime,
              calcMatchTime: matchTime * 1000,
              status: true,
              score,
              startTime: new Date(),
              endTime: new Date(),
            });
            const first = newPlayer();
            await read((tx) => repo(MiniGamesRepository).insertMany(tx, 'game-server', [resultOf(first, 0.5)]));
            expect(await repo(MiniGamesRepository).recentForPlayer(first.uuid, 50)).toEqual([expect.objectContaining({ rank: 1 })]);
            const player = newPlayer();
            expect(await repo(MiniGamesRepository).recentForPlayer(player.uuid, 50)).toEqual([]);
            expect(await write((tx) => repo(MiniGamesRepository).insertMany(tx, 'game-server', [resultOf(player, 0.9)]))).toBe(1);
            expect(await repo(MiniGamesRepository).recentForPlayer(player.uuid, 50)).toEqual([expect.objectContaining({ success: 1, matchTime, rank: 1 })]);
            expect(await repo(MiniGamesRepository).recentForPlayer(first.uuid, 50)).toEqual([expect.objectContaining({ rank: 2 })]);
          },
        },
      ],
    },
    PlaySessionsRepository: {
      insert: [
        {
          tables: ['play_sessions'],
          bumps: [],
          async run(write) {
            const session = newSession();
            expect(await storedSession(session.sourceId)).toBeUndefined();
            await write((tx) => repo(PlaySessionsRepository).insert(tx, [session], new Date()));
            expect(await storedSession(session.sourceId)).toEqual({ sourceId: session.sourceId, uuid: session.uuid, startedAt: session.startedAt, countedUntil: session.countedUntil, endedAt: null });
            expect((await read((tx) => repo(PlaySessionsRepository).getLatestStart(tx, 'game-server', session.uuid)))?.getTime()).toBe(session.startedAt * 1000);
          },
        },
      ],
      update: [
        {
          tables: ['play_sessions'],
          bumps: [],
          async run(write) {
            const session = newSession();
            await read((tx) => repo(PlaySessionsRepository).insert(tx, [session], new Date()));
            const moved = { sourceId: session.sourceId, uuid: session.uuid, startedAt: session.startedAt, countedUntil: session.countedUntil + 300, endedAt: session.countedUntil + 300 };
            await write((tx) => repo(PlaySessionsRepository).update(tx, 'game-server', moved));
            expect(await storedSession(session.sourceId)).toEqual(moved);
          },
        },
      ],
      closeOpenBefore: [
        {
          tables: ['play_sessions'],
          bumps: [],
          async run(write) {
            const session = newSession();
            await read((tx) => repo(PlaySessionsRepository).insert(tx, [session], new Date()));
            const before = new Date((session.startedAt + 1) * 1000);
            expect(await write((tx) => repo(PlaySessionsRepository).closeOpenBefore(tx, 'game-server', session.uuid, before))).toBe(1);
            // Ended at its last reported activity.
            expect(await storedSession(session.sourceId)).toMatchObject({ countedUntil: session.countedUntil, endedAt: session.countedUntil });
          },
        },
      ],
      closeReporterBefore: [
        {
          tables: ['play_sessions'],
          bumps: [],
          async run(write) {
            const reporter = unique('server-');
            const session = newSession(reporter);
            await read((tx) => repo(PlaySessionsRepository).insert(tx, [session], new Date()));
            expect(await storedSession(session.sourceId)).toMatchObject({ endedAt: null });
            expect(await write((tx) => repo(PlaySessionsRepository).closeReporterBefore(tx, reporter, new Date()))).toBe(1);
            expect(await storedSession(session.sourceId)).toMatchObject({ endedAt: session.countedUntil });
          },
        },
      ],
    },
    PlayTotalsRepository: {
      addDays: [
        {
          tables: ['play_days'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            expect(await repo(PlayTotalsRepository).getDays(uuid, '2026-01-01', '2026-01-31')).toEqual([]);
            await write((tx) => repo(PlayTotalsRepository).addDays(tx, [{ uuid, day: '2026-01-15', seconds: 1800 }]));
            expect(await repo(PlayTotalsRepository).getDays(uuid, '2026-01-01', '2026-01-31')).toEqual([{ day: '2026-01-15', seconds: 1800 }]);
          },
        },
        {
          // Added to a stored day, which holds a day at most.
          tables: ['play_days'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            await read((tx) => repo(PlayTotalsRepository).addDays(tx, [{ uuid, day: '2026-01-15', seconds: 80_000 }]));
            await write((tx) =>
              repo(PlayTotalsRepository).addDays(tx, [
                { uuid, day: '2026-01-15', seconds: 10_000 },
                { uuid, day: '2026-01-16', seconds: 60 },
              ]),
            );
            expect(await repo(PlayTotalsRepository).getDays(uuid, '2026-01-01', '2026-01-31')).toEqual([
              { day: '2026-01-15', seconds: 86_400 },
              { day: '2026-01-16', seconds: 60 },
            ]);
          },
        },
      ],
      addRecorded: [
        {
          tables: ['play_era_totals'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            await read((tx) => repo(PlayTotalsRepository).addImported(tx, [{ uuid, era: 'walk', seconds: 100 }]));
            expect(await repo(PlayTimeReader).eraTotals(uuid)).toEqual(new Map([['walk', 100]]));
            await write((tx) => repo(PlayTotalsRepository).addRecorded(tx, [{ uuid, era: 'walk', seconds: 50 }]));
            expect(await repo(PlayTimeReader).eraTotals(uuid)).toEqual(new Map([['walk', 150]]));
          },
        },
      ],
      addImported: [
        {
          tables: ['play_era_totals'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            await read((tx) => repo(PlayTotalsRepository).addRecorded(tx, [{ uuid, era: 'walk', seconds: 40 }]));
            await write((tx) =>
              repo(PlayTotalsRepository).addImported(tx, [
                { uuid, era: 'walk', seconds: 300 },
                { uuid, era: 'older', seconds: 7 },
              ]),
            );
            expect(await repo(PlayTimeReader).eraTotals(uuid)).toEqual(new Map([['older', 7], ['walk', 340]]));
          },
        },
        {
          // Negative: an imported total that shrank on a rerun takes its difference away.
          tables: ['play_era_totals'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            await read((tx) => repo(PlayTotalsRepository).addImported(tx, [{ uuid, era: 'walk', seconds: 300 }]));
            await write((tx) => repo(PlayTotalsRepository).addImported(tx, [{ uuid, era: 'walk', seconds: -120 }]));
            expect(await repo(PlayTimeReader).eraTotals(uuid)).toEqual(new Map([['walk', 180]]));
          },
        },
      ],
      insertImported: [
        {
          tables: ['play_imported_totals'],
          bumps: [],
          async run(write) {
            const total = { sourceId: unique('total-'), uuid: newPlayer().uuid, era: 'walk', seconds: 3600 };
            await write((tx) => repo(PlayTotalsRepository).insertImported(tx, 'original', [total], new Date()));
            expect(await read((tx) => repo(PlayTotalsRepository).getImportedForUpdate(tx, 'original', [total.sourceId]))).toEqual(new Map([[total.sourceId, total]]));
          },
        },
      ],
      replaceImported: [
        {
          tables: ['play_imported_totals'],
          bumps: [],
          async run(write) {
            const total = { sourceId: unique('total-'), uuid: newPlayer().uuid, era: 'walk', seconds: 3600 };
            await read((tx) => repo(PlayTotalsRepository).insertImported(tx, 'original', [total], new Date()));
            const replaced = { ...total, uuid: newPlayer().uuid, era: 'older', seconds: 1200 };
            await write((tx) => repo(PlayTotalsRepository).replaceImported(tx, 'original', replaced));
            expect(await read((tx) => repo(PlayTotalsRepository).getImportedForUpdate(tx, 'original', [total.sourceId]))).toEqual(new Map([[total.sourceId, replaced]]));
          },
        },
      ],
    },
    AwayRepository: {
      insert: [
        {
          tables: ['away_records'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            const ids = [unique('away-'), unique('away-')];
            expect(await read((tx) => repo(AwayRepository).getStoredIds(tx, 'game-server', ids))).toEqual(new Set());
            await write((tx) =>
              repo(AwayRepository).insert(
                tx,
                'game-server',
                [
                  { sourceId: ids[0], uuid, seconds: 300, at: new Date() },
                  { sourceId: ids[1], uuid, seconds: 60, at: null },
                ],
                new Date(),
              ),
            );
            expect(await read((tx) => repo(AwayRepository).getStoredIds(tx, 'game-server', ids))).toEqual(new Set(ids));
          },
        },
      ],
      addTotals: [
        {
          tables: ['away_totals'],
          bumps: [],
          async run(write) {
            const { uuid } = newPlayer();
            const other = newPlayer().uuid;
            await read((tx) => repo(AwayRepository).addTotals(tx, new Map([[uuid, 300]])));
            expect(await repo(PlayTimeReader).awaySeconds(uuid)).toBe(300);
            await write((tx) =>
              repo(AwayRepository).addTotals(
                tx,
                new Map([
                  [uuid, 45],
                  [other, 10],
                ]),
              ),
            );
            expect(await repo(PlayTimeReader).awaySeconds(uuid)).toBe(345);
            expect(await repo(PlayTimeReader).awaySeconds(other)).toBe(10);
          },
        },
      ],
    },
    ClubAccountsRepository: {
      create: [
        {
          tables: ['club_accounts'],
          bumps: [],
          async run(write) {
            const player = newPlayer();
            await read((tx) => repo(PlayersRepository).createIfAbsent(tx, player.uuid, player.mcid, new Date()));
            expect(await repo(ClubAccountsRepository).existsForPlayer(player.uuid)).toBe(false);
            const id = await write((tx) => repo(ClubAccountsRepository).create(tx, player.uuid, 'hash-0', new Date()));
            expect(await repo(ClubAccountsRepository).getCredentials(player.uuid)).toEqual({ id, passwordHash: 'hash-0' });
          },
        },
      ],
      setPassword: [
        {
          tables: ['club_accounts'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            await write((tx) => repo(ClubAccountsRepository).setPassword(tx, account.accountId, 'hash-2'));
            expect((await repo(ClubAccountsRepository).getCredentials(account.uuid))?.passwordHash).toBe('hash-2');
          },
        },
      ],
      setCurrentToken: [
        {
          tables: ['club_accounts'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.current).toBe(true);
            await write((tx) => repo(ClubAccountsRepository).setCurrentToken(tx, account.accountId, null));
            // The session cache trusts any commit (docs/design-and-performance.md): the next read sees it.
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.current).toBe(false);
          },
        },
      ],
      delete: [
        {
          tables: ['club_accounts'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            await read(async (tx) => {
              await repo(ClubAccountsRepository).setCurrentToken(tx, account.accountId, null);
              await repo(TokensRepository).deleteAccountTokens(tx, account.accountId);
            });
            expect(await write((tx) => repo(ClubAccountsRepository).delete(tx, account.accountId))).toBe(true);
            expect(await repo(ClubAccountsRepository).existsForPlayer(account.uuid)).toBe(false);
          },
        },
      ],
      setNickname: [
        {
          tables: ['club_accounts'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            expect(await write((tx) => repo(ClubAccountsRepository).setNickname(tx, account.accountId, 'walker'))).toBe(true);
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.nickname).toBe('walker');
          },
        },
      ],
      setGroup: [
        {
          tables: ['club_accounts'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.clubgroup).toBe('default');
            expect(await write((tx) => repo(ClubAccountsRepository).setGroup(tx, account.uuid, 'admin'))).toBe(true);
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.clubgroup).toBe('admin');
          },
        },
      ],
    },
    TokensRepository: {
      create: [
        {
          tables: ['club_tokens'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            const tokenHash = hash(unique('token'));
            expect(await repo(TokensRepository).getSession(tokenHash)).toBeNull();
            const id = await write((tx) => repo(TokensRepository).create(tx, account.accountId, tokenHash, new Date(), new Date(Date.now() + 3_600_000)));
            expect(await repo(TokensRepository).getSession(tokenHash)).toMatchObject({ tokenId: id, loggedOut: false });
          },
        },
      ],
      deleteTokensExpiredBefore: [
        {
          tables: ['club_tokens'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            const expiredHash = hash(unique('expired'));
            const expired = await read((tx) => repo(TokensRepository).create(tx, account.accountId, expiredHash, new Date(Date.now() - 7_200_000), new Date(Date.now() - 3_600_000)));
            expect(await repo(TokensRepository).getSessionById(expired)).not.toBeNull();
            await write((tx) => repo(TokensRepository).deleteTokensExpiredBefore(tx, account.accountId, new Date()));
            expect(await repo(TokensRepository).getSession(expiredHash)).toBeNull();
            expect(await repo(TokensRepository).getSession(account.tokenHash)).not.toBeNull();
          },
        },
      ],
      deleteAccountTokens: [
        {
          tables: ['club_tokens'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            expect(await repo(TokensRepository).getSession(account.tokenHash)).not.toBeNull();
            await read((tx) => repo(ClubAccountsRepository).setCurrentToken(tx, account.accountId, null));
            await write((tx) => repo(TokensRepository).deleteAccountTokens(tx, account.accountId));
            expect(await repo(TokensRepository).getSession(account.tokenHash)).toBeNull();
          },
        },
      ],
      logOut: [
        {
          tables: ['club_tokens'],
          bumps: [],
          async run(write) {
            const account = await seedAccount();
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.loggedOut).toBe(false);
            await write((tx) => repo(TokensRepository).logOut(tx, account.tokenId, new Date()));
            expect((await repo(TokensRepository).getSession(account.tokenHash))?.loggedOut).toBe(true);
          },
        },
      ],
    },
    UserKeysRepository: {
      replace: [
        {
          tables: ['user_keys'],
          bumps: [],
          async run(write) {
            const player = newPlayer();
            await read((tx) => repo(PlayersRepository).createIfAbsent(tx, player.uuid, player.mcid, new Date()));
            const keyHash = hash(unique('userkey'));
            await write((tx) => repo(UserKeysRepository).replace(tx, player.uuid, keyHash, new Date(), new Date(Date.now() + 600_000)));
            expect(await repo(UserKeysRepository).getByHash(keyHash)).toMatchObject({ playerUuid: player.uuid, spent: false });
          },
        },
      ],
      spend: [
        {
          tables: ['user_keys'],
          bumps: [],
          async run(write) {
            const player = newPlayer();
            const keyHash = hash(unique('userkey'));
            await read(async (tx) => {
              await repo(PlayersRepository).createIfAbsent(tx, player.uuid, player.mcid, new Date());
              await repo(UserKeysRepository).replace(tx, player.uuid, keyHash, new Date(), new Date(Date.now() + 600_000));
            });
            const key = await repo(UserKeysRepository).getByHash(keyHash);
            expect(await write((tx) => repo(UserKeysRepository).spend(tx, key!.id, new Date()))).toBe(true);
            expect((await repo(UserKeysRepository).getByHash(keyHash))?.spent).toBe(true);
          },
        },
      ],
    },
    ApiKeysRepository: {
      create: [
        {
          tables: ['api_keys'],
          bumps: [],
          async run(write) {
            const keyHash = hash(unique('apikey'));
            expect(await write((tx) => repo(ApiKeysRepository).create(tx, unique('walk-key-'), keyHash, ['operator'], new Date()))).toBe(true);
            expect((await repo(ApiKeysRepository).getByHash(keyHash))?.scopes).toEqual(['operator']);
          },
        },
      ],
      deleteByName: [
        {
          // The key goes and its hash joins the revocation list, in one write.
          tables: ['api_keys', 'api_key_revocations'],
          bumps: [],
          async run(write) {
            const keyHash = hash(unique('apikey'));
            const name = unique('doomed-');
            await read((tx) => repo(ApiKeysRepository).create(tx, name, keyHash, ['operator'], new Date()));
            expect(await write((tx) => repo(ApiKeysRepository).deleteByName(tx, name.toUpperCase(), new Date()))).toBe(true);
            expect(await repo(ApiKeysRepository).getByHash(keyHash)).toBeNull();
            // No repository reads the revocation list (a restore applies it: src/backup/credentials.ts).
            const revoked = await app.dataSource.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM api_key_revocations WHERE key_hash = ?', [keyHash]);
            expect(Number(revoked[0].n)).toBe(1);
          },
        },
      ],
      touch: [
        {
          tables: ['api_keys'],
          bumps: [],
          async run(write) {
            const keyHash = hash(unique('apikey'));
            await read((tx) => repo(ApiKeysRepository).create(tx, unique('touched-'), keyHash, ['operator'], new Date()));
            const key = await repo(ApiKeysRepository).getByHash(keyHash);
            expect(key?.lastUsedAt).toBeNull();
            const now = new Date();
            await write((tx) => repo(ApiKeysRepository).touch(tx, key!.id, now, new Date(now.getTime() - 60_000)));
            expect((await repo(ApiKeysRepository).getById(key!.id))?.lastUsedAt?.getTime()).toBe(now.getTime());
          },
        },
      ],
    },
    ConsoleSessionsRepository: {
      create: [
        {
          tables: ['console_sessions'],
          bumps: [],
          async run(write) {
            const sessionHash = hash(unique('console'));
            const now = new Date();
            await write((tx) =>
              repo(ConsoleSessionsRepository).create(tx, { sessionHash, apiKeyId: null, clubTokenId: null, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + 3_600_000) }),
            );
            expect((await repo(ConsoleSessionsRepository).getByHash(sessionHash))?.createdAt.getTime()).toBe(now.getTime());
          },
        },
      ],
      touch: [
        {
          tables: ['console_sessions'],
          bumps: [],
          async run(write) {
            const session = await seedConsoleSession(new Date(Date.now() - 600_000));
            const now = new Date();
            await write((tx) => repo(ConsoleSessionsRepository).touch(tx, session.id, now, new Date(now.getTime() - 60_000)));
            expect((await repo(ConsoleSessionsRepository).getByHash(session.sessionHash))?.lastSeenAt.getTime()).toBe(now.getTime());
          },
        },
      ],
      delete: [
        {
          tables: ['console_sessions'],
          bumps: [],
          async run(write) {
            const session = await seedConsoleSession();
            await write((tx) => repo(ConsoleSessionsRepository).delete(tx, session.id));
            expect(await repo(ConsoleSessionsRepository).getByHash(session.sessionHash)).toBeNull();
          },
        },
      ],
      deleteExpired: [
        {
          tables: ['console_sessions'],
          bumps: [],
          async run(write) {
            const idle = await seedConsoleSession(new Date(Date.now() - 7_200_000));
            const fresh = await seedConsoleSession();
            expect(await write((tx) => repo(ConsoleSessionsRepository).deleteExpired(tx, new Date(), new Date(Date.now() - 3_600_000)))).toBeGreaterThanOrEqual(1);
            expect(await repo(ConsoleSessionsRepository).getByHash(idle.sessionHash)).toBeNull();
            expect(await repo(ConsoleSessionsRepository).getByHash(fresh.sessionHash)).not.toBeNull();
          },
        },
      ],
    },
    BanlistRepository: {
      replacePlayer: [
        {
          tables: ['banlist_players', 'banlist_bans'],
          bumps: ['banlist'],
          async run(write) {
            const { uuid } = newPlayer();
            expect((await app.get(`/users/banlist/${uuid}`)).status).toBe(404); // cached "not synced"
            await write((tx) =>
              repo(BanlistRepository).replacePlayer(
                tx,
                uuid,
                {
                  uuid,
                  name: 'Griefer',
                  reputation: 40,
                  bans: [{ banId: 600_000 + sequence++, type: 'global', reason: 'griefing', server: null, bannedBy: null, lostRep: 10, bannedAt: new Date('2020-05-01T12:00:00Z') }],
                },
                new Date(),
              ),
            );
            const synced = await app.get<{ data: { reputation: number; global: number } }>(`/users/banlist/${uuid}`);
            expect(synced.body.data).toMatchObject({ reputation: 40, global: 1 });
          },
        },
        {
          // A lifted ban: the player's bans go with the player's row (`banlist_bans`).
          tables: ['banlist_bans'],
          bumps: ['banlist'],
          async run(write) {
            const { uuid } = newPlayer();
            const banId = 650_000 + sequence++;
            await read((tx) =>
              repo(BanlistRepository).replacePlayer(
                tx,
                uuid,
                { uuid, name: 'Reformed', reputation: 40, bans: [{ banId, type: 'local', reason: 'spam', server: null, bannedBy: null, lostRep: 5, bannedAt: new Date() }] },
                new Date(),
              ),
            );
            expect((await app.get<{ data: { localIds: number[] } }>(`/users/banlist/${uuid}`)).body.data.localIds).toEqual([banId]);
            expect(await write((tx) => repo(BanlistRepository).replacePlayer(tx, uuid, null, new Date()))).toBe(1);
            expect((await app.get<{ data: { localIds: number[] } }>(`/users/banlist/${uuid}`)).body.data.localIds).toEqual([]);
          },
        },
      ],
    },
    SyncRunsRepository: {
      insertRun: [
        {
          tables: ['banlist_sync_runs'],
          bumps: [],
          async run(write) {
            const finishedAt = new Date(Date.now() + 86_400_000 + sequence++ * 1000).toISOString();
            await write((tx) => repo(SyncRunsRepository).insertRun(tx, 'cli', { players: 7, updated: 6, failed: 1, removedBans: 2, startedAt: finishedAt, finishedAt }));
            expect((await repo(SyncRunsRepository).getRecentRuns(1))[0]).toMatchObject({ players: 7, updated: 6, failed: 1, removedBans: 2, finishedAt });
          },
        },
      ],
    },
    SyncLeasesRepository: {
      createLease: [
        {
          tables: ['sync_leases'],
          bumps: [],
          async run(write) {
            const name = unique('lease-');
            expect(await write((tx) => repo(SyncLeasesRepository).createLease(tx, name, 'walker', new Date(Date.now() + 60_000)))).toBe(true);
            expect((await repo(SyncLeasesRepository).getLease(name))?.holder).toBe('walker');
          },
        },
      ],
      takeLease: [
        {
          tables: ['sync_leases'],
          bumps: [],
          async run(write) {
            const name = unique('lease-');
            await read((tx) => repo(SyncLeasesRepository).createLease(tx, name, 'gone', new Date(Date.now() - 60_000)));
            expect(await write((tx) => repo(SyncLeasesRepository).takeLease(tx, name, 'walker', new Date(Date.now() + 60_000), new Date()))).toBe(true);
            expect((await repo(SyncLeasesRepository).getLease(name))?.holder).toBe('walker');
          },
        },
      ],
      updateHeldLease: [
        {
          tables: ['sync_leases'],
          bumps: [],
          async run(write) {
            const name = unique('lease-');
            await read((tx) => repo(SyncLeasesRepository).createLease(tx, name, 'walker', new Date(Date.now() + 60_000)));
            expect(await write((tx) => repo(SyncLeasesRepository).updateHeldLease(tx, name, 'walker', { holder: null, expiresAt: null }))).toBe(true);
            expect(await repo(SyncLeasesRepository).getLease(name)).toEqual({ holder: null, expiresAt: null });
          },
        },
      ],
    },
    EventsRepository: {
      append: [
        {
          tables: ['events', 'event_seq'],
          bumps: [],
          async run(write) {
            const before = await repo(EventsRepository).lastEventId();
            const id = await write((tx) => repo(EventsRepository).append(tx, 'city.changed', { walked: 1 }, new Date()));
            expect(await repo(EventsRepository).lastEventId()).toBe(id);
            expect((await repo(EventsRepository).eventsAfter(before, 10)).map((event) => event.id)).toContain(id);
          },
        },
      ],
      deleteOlderThan: [
        {
          tables: ['events'],
          bumps: [],
          async run(write) {
            const old = await read((tx) => repo(EventsRepository).append(tx, 'city.changed', { old: 1 }, new Date(Date.now() - 90 * 86_400_000)));
            expect((await repo(EventsRepository).eventsAfter(old - 1, 1)).map((event) => event.id)).toEqual([old]);
            expect(await write((tx) => repo(EventsRepository).deleteOlderThan(tx, new Date(Date.now() - 30 * 86_400_000)))).toBeGreaterThanOrEqual(1);
            expect((await repo(EventsRepository).eventsAfter(old - 1, 1)).map((event) => event.id)).not.toContain(old);
          },
        },
      ],
    },
    WebhooksRepository: {
      insert: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await write((tx) =>
              repo(WebhooksRepository).insert(tx, { url: 'http://127.0.0.1:9/new', events: ['city.changed'], format: 'json', secret: 's', createdAt: new Date(), cursorEventId: 1_000_000 }),
            );
            expect((await repo(WebhooksRepository).webhook(id))?.url).toBe('http://127.0.0.1:9/new');
          },
        },
      ],
      update: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook();
            await write((tx) => repo(WebhooksRepository).update(tx, id, { active: true, url: 'http://127.0.0.1:9/moved' }));
            expect(await repo(WebhooksRepository).webhook(id)).toMatchObject({ active: true, url: 'http://127.0.0.1:9/moved' });
          },
        },
      ],
      delete: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook();
            expect(await write((tx) => repo(WebhooksRepository).delete(tx, id))).toBe(true);
            expect(await repo(WebhooksRepository).webhook(id)).toBeUndefined();
          },
        },
      ],
      recordDeliveryOutcome: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook();
            await write((tx) => repo(WebhooksRepository).recordDeliveryOutcome(tx, id, new Date(), false));
            expect(await repo(WebhooksRepository).webhook(id)).toMatchObject({ failing: true, lastDeliveryAt: expect.any(String) });
          },
        },
      ],
      claim: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook({ active: true });
            const holder = unique('walker-');
            expect(await write((tx) => repo(WebhooksRepository).claim(tx, [id], holder, new Date(), new Date(Date.now() + 60_000)))).toEqual([id]);
            expect(await repo(WebhooksRepository).heldLeases(new Date())).toContainEqual({ webhookId: id, holder });
          },
        },
      ],
      renewLease: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook({ active: true });
            const holder = unique('walker-');
            await read((tx) => repo(WebhooksRepository).claim(tx, [id], holder, new Date(), new Date(Date.now() + 60_000)));
            expect(await write((tx) => repo(WebhooksRepository).renewLease(tx, id, holder, new Date(Date.now() + 600_000)))).toBe(true);
            expect(await repo(WebhooksRepository).heldLeases(new Date(Date.now() + 300_000))).toContainEqual({ webhookId: id, holder });
          },
        },
      ],
      releaseLease: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook({ active: true });
            const holder = unique('walker-');
            await read((tx) => repo(WebhooksRepository).claim(tx, [id], holder, new Date(), new Date(Date.now() + 60_000)));
            await write((tx) => repo(WebhooksRepository).releaseLease(tx, id, holder));
            expect((await repo(WebhooksRepository).heldLeases(new Date())).map((lease) => lease.webhookId)).not.toContain(id);
          },
        },
      ],
      advanceCursor: [
        {
          tables: ['webhooks'],
          bumps: [],
          async run(write) {
            const id = await seedWebhook({ active: true });
            const holder = unique('walker-');
            await read((tx) => repo(WebhooksRepository).claim(tx, [id], holder, new Date(), new Date(Date.now() + 60_000)));
            const eventId = await seedEvent();
            expect(await write((tx) => repo(WebhooksRepository).advanceCursor(tx, id, holder, eventId))).toBe(true);
            expect((await repo(WebhooksRepository).webhook(id))?.cursorEventId).toBe(eventId);
          },
        },
      ],
    },
    WebhookDeliveriesRepository: {
      enqueue: [
        {
          tables: ['webhook_deliveries'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const eventId = await seedEvent();
            const deliveryId = unique('delivery-');
            await write((tx) => repo(WebhookDeliveriesRepository).enqueue(tx, { webhookId, deliveryId, eventId, type: 'city.changed', now: new Date() }));
            expect(await repo(WebhookDeliveriesRepository).delivery(webhookId, deliveryId)).toMatchObject({ status: 'pending' });
          },
        },
      ],
      insertCompleted: [
        {
          tables: ['webhook_deliveries'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const deliveryId = unique('ping-');
            await write((tx) => repo(WebhookDeliveriesRepository).insertCompleted(tx, { webhookId, deliveryId, eventId: null, type: 'ping', status: 'delivered', now: new Date() }));
            expect(await repo(WebhookDeliveriesRepository).delivery(webhookId, deliveryId)).toMatchObject({ status: 'delivered' });
          },
        },
      ],
      recordAttempt: [
        {
          tables: ['webhook_deliveries', 'webhook_attempts'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const deliveryId = await seedDelivery(webhookId);
            const attempt = { webhookId, deliveryId, eventId: null, attempt: 1, statusCode: 500, error: null, durationMs: 3, at: new Date() };
            await write((tx) => repo(WebhookDeliveriesRepository).recordAttempt(tx, attempt, { status: 'failed', countsAsAttempt: true }));
            expect(await repo(WebhookDeliveriesRepository).delivery(webhookId, deliveryId)).toMatchObject({ status: 'failed' });
            expect(await repo(WebhookDeliveriesRepository).attempts(webhookId)).toEqual([expect.objectContaining({ deliveryId, status: 500 })]);
          },
        },
      ],
      logAttempt: [
        {
          tables: ['webhook_attempts'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const deliveryId = await seedDelivery(webhookId);
            await write((tx) =>
              repo(WebhookDeliveriesRepository).logAttempt(tx, { webhookId, deliveryId, eventId: null, attempt: 1, statusCode: null, error: 'refused', durationMs: 1, at: new Date() }),
            );
            expect(await repo(WebhookDeliveriesRepository).attempts(webhookId)).toEqual([expect.objectContaining({ deliveryId, error: 'refused' })]);
          },
        },
      ],
      markDelivered: [
        {
          tables: ['webhook_deliveries'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const deliveryId = await seedDelivery(webhookId);
            await write((tx) => repo(WebhookDeliveriesRepository).markDelivered(tx, deliveryId, new Date()));
            expect(await repo(WebhookDeliveriesRepository).delivery(webhookId, deliveryId)).toMatchObject({ status: 'delivered' });
          },
        },
      ],
      deleteForWebhook: [
        {
          tables: ['webhook_deliveries'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const deliveryId = await seedDelivery(webhookId);
            await write((tx) => repo(WebhookDeliveriesRepository).deleteForWebhook(tx, webhookId));
            expect(await repo(WebhookDeliveriesRepository).delivery(webhookId, deliveryId)).toBeUndefined();
          },
        },
      ],
      deleteOlderThan: [
        {
          tables: ['webhook_attempts'],
          bumps: [],
          async run(write) {
            const webhookId = await seedWebhook();
            const deliveryId = await seedDelivery(webhookId);
            await read((tx) =>
              repo(WebhookDeliveriesRepository).logAttempt(tx, { webhookId, deliveryId, eventId: null, attempt: 1, statusCode: 500, error: null, durationMs: 1, at: new Date(Date.now() - 90 * 86_400_000) }),
            );
            expect(await repo(WebhookDeliveriesRepository).attempts(webhookId)).toHaveLength(1);
            const removed = await write((tx) => repo(WebhookDeliveriesRepository).deleteOlderThan(tx, new Date(Date.now() - 30 * 86_400_000)));
            expect(removed.attempts).toBeGreaterThanOrEqual(1);
            expect(await repo(WebhookDeliveriesRepository).attempts(webhookId)).toEqual([]);
          },
        },
      ],
    },
    CommunityBanlistBansRepository: {
      insert: [
        {
          tables: ['community_banlist_bans'],
          bumps: [],
          async run(write) {
            const banId = 900_000_000 + (sequence += 1);
            const sourceId = unique('ban-');
            await write((tx) =>
              communityBans().insert(
                tx,
                { origin: 'original', sourceId, banId, uuid: newPlayer().uuid, type: 'global', reason: 'r', bannedBy: null, bannedAt: new Date(), bannedAtFrom: 'import' },
                new Date(),
              ),
            );
            expect(await read((tx) => communityBans().holders(tx, [banId]))).toEqual(new Map([[banId, { origin: 'original', sourceId }]]));
            // The bans site reads it at once (not cached).
            expect((await app.get(`/v2/bans/details/gban/${banId}`)).body).toMatchObject({ status: true, detail: { banid: banId, status: true } });
          },
        },
      ],
      update: [
        {
          tables: ['community_banlist_bans'],
          bumps: [],
          async run(write) {
            const banId = 900_000_000 + (sequence += 1);
            await read((tx) =>
              communityBans().insert(
                tx,
                { origin: 'banlist-sync', sourceId: String(banId), banId, uuid: newPlayer().uuid, type: 'local', reason: 'r', bannedBy: null, bannedAt: new Date(), bannedAtFrom: 'mirror' },
                new Date(),
              ),
            );
            await write((tx) => communityBans().update(tx, banId, { active: false, reason: 'changed' }, new Date()));
            expect(await communityBans().getByBanId(banId)).toMatchObject({ banId, active: false, reason: 'changed', origin: 'banlist-sync' });
            expect((await app.get(`/v2/bans/details/lban/${banId}`)).body).toMatchObject({ status: true, detail: { banid: banId, status: false, reason: 'changed' } });
          },
        },
      ],
    },
    EvidenceRepository: {
      insert: [
        {
          tables: ['evidence_files'],
          bumps: [],
          async run(write) {
            const record = { kind: 'vban' as const, id: unique('') };
            const name = `${randomBytes(16).toString('hex')}.png`;
            const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 1, 2]);
            await write((tx) => repo(EvidenceRepository).insert(tx, record, { name, contentType: 'image/png', bytes, width: 1, height: 1 }, 'Walker', new Date()));
            expect(await repo(EvidenceRepository).namesFor(record)).toEqual([name]);
            // The bytes come back whole, a zero and a 255 included.
            expect((await app.get(`/evidence/${name}`)).status).toBe(200);
            expect(await repo(EvidenceRepository).getContent(name)).toEqual({ contentType: 'image/png', bytes });
          },
        },
      ],
      remove: [
        {
          tables: ['evidence_files'],
          bumps: [],
          async run(write) {
            const record = { kind: 'eban' as const, id: unique('') };
            const name = `${randomBytes(16).toString('hex')}.gif`;
            await read((tx) => repo(EvidenceRepository).insert(tx, record, { name, contentType: 'image/gif', bytes: Buffer.from('GIF89a'), width: 1, height: 1 }, 'Walker', new Date()));
            expect(await write((tx) => repo(EvidenceRepository).remove(tx, record, name))).toBe(true);
            expect(await repo(EvidenceRepository).namesFor(record)).toEqual([]);
            expect((await app.get(`/evidence/${name}`)).status).toBe(404);
          },
        },
      ],
    },
    OriginalImportRepository: {
      saveLink: [
        {
          tables: ['original_import_links'],
          bumps: [],
          async run(write) {
            const sourceId = unique('source-');
            await write((tx) => importLinks.saveLink(tx, 'city', sourceId, 42, 'registered'));
            // The links are read only inside the import's transaction.
            expect(await read((tx) => importLinks.getLink(tx, 'city', sourceId))).toEqual({ targetId: 42, importedState: 'registered' });
          },
        },
      ],
    },
  };

  it('has a case for every write method of every repository, and names every other method', async () => {
    const classes = await repositoryClasses();
    expect(classes.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const names = new Set<string>();
    for (const { file, cls } of classes) {
      names.add(cls.name);
      const classified = new Map<string, string>();
      for (const [kind, table] of [
        ['read', READS],
        ['private step', PRIVATE_STEPS],
        ['write', Object.fromEntries(Object.entries(WRITES).map(([name, cases]) => [name, Object.keys(cases)]))],
      ] as const) {
        for (const method of table[cls.name] ?? []) {
          if (classified.has(method)) {
            problems.push(`${cls.name}.${method} is listed as both ${classified.get(method)} and ${kind}`);
          }
          classified.set(method, kind);
        }
      }
      const methods = ownMethods(cls);
      for (const method of methods) {
        if (!classified.has(method)) {
          problems.push(`${cls.name}.${method} (${file}) has no case in test/repository-writes.e2e-spec.ts: add its write case, or list it under READS`);
        }
      }
      for (const method of classified.keys()) {
        if (!methods.includes(method)) {
          problems.push(`${cls.name}.${method} is listed here but the class has no such method`);
        }
      }
      for (const [method, cases] of Object.entries(WRITES[cls.name] ?? {})) {
        if (cases.length === 0) {
          problems.push(`${cls.name}.${method} has an empty list of cases`);
        }
      }
    }
    for (const name of [...Object.keys(READS), ...Object.keys(WRITES), ...Object.keys(PRIVATE_STEPS)]) {
      if (!names.has(name)) {
        problems.push(`${name} is listed here but no *.repository.ts under src/ exports it as a provider`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('agrees with the ownership table of docs/design-and-performance.md', async () => {
    const rows = parseOwnershipTable(readFileSync(DOCS, 'utf8'));
    const rowOf = new Map(rows.flatMap((row) => row.tables.map((table) => [table, row] as const)));
    const problems: string[] = [];
    const bumpedByTable = new Map<string, Set<DataTopic>>();
    for (const [repository, methods] of Object.entries(WRITES)) {
      for (const [method, cases] of Object.entries(methods)) {
        for (const { table, bumps } of cases.flatMap((writeCase) => writeCase.tables.map((table) => ({ table, bumps: writeCase.bumps })))) {
          const row = rowOf.get(table);
          if (!row) {
            problems.push(`${repository}.${method}: the docs' table has no row for \`${table}\``);
            continue;
          }
          if (row.writer !== repository) {
            problems.push(`${repository}.${method} writes \`${table}\`, whose writer in the docs is ${row.writer}`);
          }
          for (const topic of bumps) {
            if (!row.topics.includes(topic)) {
              problems.push(`${repository}.${method} bumps ${topic}, which the docs' row for \`${table}\` does not list`);
            }
          }
          const seen = bumpedByTable.get(table) ?? new Set<DataTopic>();
          bumps.forEach((topic) => seen.add(topic));
          bumpedByTable.set(table, seen);
        }
      }
    }
    const repositories = new Set((await repositoryClasses()).map(({ cls }) => cls.name));
    for (const row of rows.filter((candidate) => candidate.writer.endsWith('Repository'))) {
      if (!repositories.has(row.writer)) {
        problems.push(`the docs name ${row.writer} as a writer, and there is no such repository`);
      }
      for (const table of row.tables) {
        const seen = bumpedByTable.get(table);
        if (!seen) {
          problems.push(`no write case here writes \`${table}\` (docs: ${row.writer})`);
        } else if ([...seen].sort().join() !== [...row.topics].sort().join()) {
          problems.push(`\`${table}\`: the docs list [${row.topics.join(', ')}], the cases here bump [${[...seen].join(', ')}]`);
        }
      }
    }
    for (const name of repositories) {
      if (!rows.some((row) => row.writer === name)) {
        problems.push(`${name} is not in the docs' ownership table`);
      }
    }
    expect(problems).toEqual([]);
  });

  const cases = Object.entries(WRITES).flatMap(([repository, methods]) =>
    Object.entries(methods).flatMap(([method, list]) => list.map((writeCase, index) => ({ name: `${repository}.${method}${list.length > 1 ? ` #${index + 1}` : ''} (${writeCase.tables.join(', ')})`, writeCase }))),
  );

  it.each(cases)('$name bumps exactly its topics and the next read sees it', async ({ writeCase }) => {
    const bumped: DataTopic[][] = [];
    const stamps = async (): Promise<string[]> => Promise.all(TOPICS.map((topic) => versions.stamp([topic])));
    const write: Write = async (work) => {
      const before = await stamps();
      const result = await uow.transaction(work);
      const after = await stamps();
      bumped.push(TOPICS.filter((_topic, index) => before[index] !== after[index]));
      return result;
    };
    await writeCase.run(write);
    expect(bumped).toHaveLength(1);
    expect([...bumped[0]].sort()).toEqual([...writeCase.bumps].sort());
  }, 120_000);
});
