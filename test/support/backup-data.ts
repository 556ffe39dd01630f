import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import sharp from 'sharp';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { EvidenceService } from '../../src/evidence/evidence.service';
import { square } from './cities';
import { recordEvent } from './events';
import { newPlayer, registerClubUser, TestApp } from './test-app';
import type { TestDatabase } from './test-database';

/** What a community's service holds, made through the API: a city (approved), players with logins, a club account, events. */
export interface Community {
  operatorKey: string;
  gameServerKey: string;
  cityId: number;
  players: Array<{ uuid: string; mcid: string }>;
  clubUser: { uuid: string; mcid: string; usertoken: string; password: string };
  /** An evidence picture (binary bytes in the database: a backup must carry them whole). */
  evidenceName: string;
}

/** A picture stored as the operator routes store one (there is no public route that uploads). */
async function storeEvidence(app: TestApp): Promise<string> {
  const body = await sharp({ create: { width: 16, height: 9, channels: 4, background: { r: 0, g: 255, b: 0, alpha: 0.5 } } }).png().toBuffer();
  const evidence = app.app.get(EvidenceService);
  const picture = await evidence.prepare(body);
  await app.app.get(UnitOfWork).transaction((tx) => evidence.store(tx, { kind: 'vban', id: '1' }, picture, 'Restorer'));
  return picture.name;
}

export async function seedCommunity(app: TestApp, options: { cityName?: string; kana?: string; at?: [number, number] } = {}): Promise<Community> {
  const operatorKey = await app.createApiKey(['operator']);
  const gameServerKey = await app.createApiKey(['game-server']);
  const asServer = { headers: { 'x-api-key': gameServerKey } };
  const password = 'restore-password-1';
  const clubUser = { ...(await registerClubUser(app, gameServerKey, { password })), password };
  const owner = newPlayer();
  const userkey = await app.issueUserKey(gameServerKey, owner.uuid, owner.mcid);
  const created = await app.post<{ cityId: number }>('/cities/create', {
    usertoken: userkey,
    cityName: options.cityName ?? 'Restore Town 🏯',
    cityNameKana: options.kana ?? 'りすとあ',
    corners: square(...(options.at ?? [12000, -34000])),
    count: 100,
    recaptcha: 'pass',
  });
  if (created.status !== 201) {
    throw new Error(`city create failed: ${created.status} ${created.text}`);
  }
  const approved = await app.post(`/cities/approval/create/${created.body.cityId}`, undefined, { headers: { 'x-api-key': operatorKey } });
  if (approved.status !== 200) {
    throw new Error(`approve failed: ${approved.status} ${approved.text}`);
  }
  const players = [owner, newPlayer(), newPlayer()];
  const logins = players.flatMap((player, index) => [
    { uuid: player.uuid, mcid: player.mcid, loggedInAt: new Date(Date.UTC(2026, 0, 1 + index, 12, 0, 0, 123)).toISOString() },
    { uuid: player.uuid, mcid: player.mcid, loggedInAt: new Date(Date.UTC(2026, 5, 1 + index, 8, 30, 0, 7)).toISOString() },
  ]);
  const reported = await app.post('/game-server/logins', { logins }, asServer);
  if (reported.status !== 200) {
    throw new Error(`logins failed: ${reported.status} ${reported.text}`);
  }
  await recordEvent(app, 'city.changed', { request: null, city: { id: created.body.cityId, note: 'ünïcødé ✓' } });
  const evidenceName = await storeEvidence(app);
  return { operatorKey, gameServerKey, cityId: created.body.cityId, players, clubUser, evidenceName };
}

/**
 * The community as the API shows it: what must read the same after a restore, on either database.
 * `evidence: false` leaves the evidence picture out (a copy older than the pictures has none).
 */
export async function viewThroughApi(app: TestApp, community: Community, options: { evidence?: boolean } = {}): Promise<Record<string, unknown>> {
  const operator = { headers: { 'x-api-key': community.operatorKey } };
  const city = await app.get(`/cities/${community.cityId}`);
  const cities = await app.get('/cities');
  const history = await app.get(`/cities/${community.cityId}/history`, operator);
  const users = await Promise.all(community.players.map(async (player) => (await app.get(`/users/${player.uuid}`, operator)).body));
  const events = await app.get('/events', { query: { after: 0, limit: 500 }, headers: { 'x-api-key': community.operatorKey } });
  // The picture's bytes as served: a backup must carry the binary column whole (the source serves it: 200).
  const evidence = options.evidence === false ? undefined : await fetch(new URL(`/evidence/${community.evidenceName}`, app.baseUrl));
  const evidenceBytes = evidence ? Buffer.from(await evidence.arrayBuffer()) : Buffer.alloc(0);
  const strip = (body: Record<string, unknown>): unknown => {
    // The build id differs between servers; everything else must not.
    return Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'version'));
  };
  return {
    city: [city.status, strip(city.body)],
    cities: [cities.status, strip(cities.body)],
    history: [history.status, strip(history.body)],
    users: users.map(strip),
    events: [events.status, strip(events.body)],
    evidence: evidence && [evidence.status, evidence.headers.get('content-type'), createHash('sha256').update(evidenceBytes).digest('hex'), evidenceBytes.length],
  };
}

/**
 * The live data's fingerprint, to show a refused restore left it as it was. SQLite: the file's
 * bytes (and no WAL beside it). MariaDB: the table list and CHECKSUM TABLE of each.
 */
export async function liveFingerprint(database: TestDatabase): Promise<string> {
  if (database.url.startsWith('sqlite:')) {
    const file = database.url.slice('sqlite:'.length);
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
    return `${hash} wal=${existsSync(`${file}-wal`) ? createHash('sha256').update(readFileSync(`${file}-wal`)).digest('hex') : 'none'}`;
  }
  const connection = await createConnection(database.url);
  try {
    const [tables] = await connection.query<Array<{ name: string }> & import('mysql2').RowDataPacket[]>(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME",
    );
    const sums: string[] = [];
    for (const { name } of tables) {
      const [rows] = await connection.query<Array<{ Checksum: string | number }> & import('mysql2').RowDataPacket[]>(`CHECKSUM TABLE \`${name}\` EXTENDED`);
      const [create] = await connection.query<import('mysql2').RowDataPacket[]>(`SHOW CREATE TABLE \`${name}\``);
      const ddl = String((create[0] as Record<string, unknown>)['Create Table']).replace(/ AUTO_INCREMENT=\d+/, '');
      sums.push(`${name}:${String(rows[0]?.Checksum)}:${createHash('sha256').update(ddl).digest('hex').slice(0, 16)}`);
    }
    return sums.join(',');
  } finally {
    await connection.end();
  }
}

/** Other databases on the server whose names start with the test database's (scratch and kept ones). */
export async function relatedDatabases(database: TestDatabase): Promise<string[]> {
  if (database.url.startsWith('sqlite:')) {
    return [];
  }
  const name = new URL(database.url).pathname.slice(1);
  const connection = await createConnection(database.url);
  try {
    const [rows] = await connection.query<import('mysql2').RowDataPacket[]>('SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [`${name}\\_%`]);
    return rows.map((row) => String(row.name)).sort();
  } finally {
    await connection.end();
  }
}
