// Seeds the benchmark data set straight into the database (the API would take minutes for a
// million login records). Column names follow src/database/migrations/*.
const { createHash, randomBytes } = require('node:crypto');

const DAY = 24 * 3600 * 1000;
const START = Date.parse('2019-01-01T00:00:00Z');

function uuidFor(index) {
  const hex = createHash('md5').update(`player-${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
const mcidFor = (index) => `player_${index}`;
const chatidFor = (index) => String(100000000000000000n + BigInt(index));
/** A deterministic 32-character club token per account, so the benchmark can sign requests. */
const tokenFor = (index) => `BenchToken${String(index).padStart(22, '0')}`;
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

function sqlTime(ms) {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** Inserts rows in multi-row statements inside transactions, for either driver. */
class Writer {
  constructor(kind, db) {
    this.kind = kind;
    this.db = db;
  }

  async insert(table, columns, rows, batch = 500) {
    for (let start = 0; start < rows.length; start += batch) {
      const chunk = rows.slice(start, start + batch);
      const placeholders = chunk.map(() => `(${columns.map(() => '?').join(',')})`).join(',');
      const sql = `INSERT INTO ${table} (${columns.join(',')}) VALUES ${placeholders}`;
      const values = chunk.flat();
      if (this.kind === 'sqlite') {
        this.db.prepare(sql).run(values);
      } else {
        await this.db.query(sql, values);
      }
    }
  }

  async transaction(work) {
    if (this.kind === 'sqlite') {
      this.db.exec('BEGIN');
      await work();
      this.db.exec('COMMIT');
    } else {
      await this.db.query('START TRANSACTION');
      await work();
      await this.db.query('COMMIT');
    }
  }
}

async function seed({ kind, db, players = 100_000, loginsPerPlayer = 10, clubAccounts = 5_000, bannedPlayers = 10_000, bans = 50_000, passwordHash, log }) {
  const writer = new Writer(kind, db);
  const now = Date.now();

  log(`players: ${players}, login records: ${players * loginsPerPlayer}`);
  const PLAYER_BATCH = 10_000;
  for (let first = 0; first < players; first += PLAYER_BATCH) {
    const playerRows = [];
    const loginRows = [];
    for (let index = first; index < Math.min(players, first + PLAYER_BATCH); index += 1) {
      const uuid = uuidFor(index);
      const firstLogin = START + (index % 365) * DAY;
      const lastLogin = firstLogin + (loginsPerPlayer - 1) * DAY;
      playerRows.push([uuid, mcidFor(index), mcidFor(index).toLowerCase(), index % 2 === 0 ? chatidFor(index) : null, 'member', sqlTime(firstLogin), sqlTime(lastLogin), sqlTime(firstLogin)]);
      for (let login = 0; login < loginsPerPlayer; login += 1) {
        loginRows.push([uuid, mcidFor(index), sqlTime(firstLogin + login * DAY), 'member']);
      }
    }
    await writer.transaction(async () => {
      await writer.insert('players', ['uuid', 'mcid', 'mcid_key', 'chatid', 'permission', 'first_login', 'last_login', 'created_at'], playerRows);
      await writer.insert('login_records', ['player_uuid', 'mcid', 'logged_in_at', 'permission'], loginRows);
    });
  }

  log(`club accounts: ${clubAccounts} (with tokens)`);
  const accounts = [];
  for (let index = 0; index < clubAccounts; index += 1) {
    accounts.push([index + 1, uuidFor(index), passwordHash, null, 'default', index + 1, sqlTime(now)]);
  }
  const tokens = accounts.map(([id]) => [id, id, sha256(tokenFor(id - 1)), sqlTime(now), sqlTime(now + 30 * DAY), null]);
  await writer.transaction(async () => {
    await writer.insert('club_accounts', ['id', 'player_uuid', 'password_hash', 'nickname', 'clubgroup', 'current_token_id', 'created_at'], accounts);
    await writer.insert('club_tokens', ['id', 'account_id', 'token_hash', 'issued_at', 'expires_at', 'logged_out_at'], tokens);
  });

  log(`ban-list: ${bannedPlayers} players, ${bans} bans`);
  const banPlayers = [];
  const banRows = [];
  for (let index = 0; index < bannedPlayers; index += 1) {
    banPlayers.push([uuidFor(index), mcidFor(index), 10 - (index % 5), sqlTime(now)]);
  }
  for (let banId = 1; banId <= bans; banId += 1) {
    const owner = (banId - 1) % bannedPlayers;
    banRows.push([banId, uuidFor(owner), banId % 3 === 0 ? 'global' : 'local', 'Griefing near spawn', banId % 2 ? 'play.example.org' : null, 'Moderator', 1, sqlTime(now - banId * 60_000), sqlTime(now)]);
  }
  await writer.transaction(async () => {
    await writer.insert('banlist_players', ['uuid', 'upstream_name', 'reputation', 'synced_at'], banPlayers);
    await writer.insert('banlist_bans', ['ban_id', 'player_uuid', 'type', 'reason', 'server', 'banned_by', 'lost_rep', 'banned_at', 'synced_at'], banRows);
  });
}

/**
 * Cities through the API (POST /cities/create with force), one per seeded player from the first on,
 * 100 × 100 blocks on a grid 200 apart: the benchmarks' cities. Resolves to each city's id and owner.
 */
async function seedCities(base, operatorKey, count) {
  const kanaDigits = 'アイウエオカキクケコ';
  const cities = [];
  for (let index = 0; index < count; index += 1) {
    const x = (index % 50) * 200;
    const z = Math.floor(index / 50) * 200;
    const kana = `シ${String(index).split('').map((digit) => kanaDigits[Number(digit)]).join('')}`;
    const response = await fetch(`${base}/cities/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': operatorKey },
      body: JSON.stringify({
        usertoken: tokenFor(index),
        cityName: `Bench City ${index}`,
        cityNameKana: kana,
        summary: 'A quiet harbour town with a long main street and a market every weekend.',
        origin: 'Named after the central district of the old map.',
        corners: [
          { id: 1, x, z },
          { id: 2, x, z: z + 99 },
          { id: 3, x: x + 99, z: z + 99 },
          { id: 4, x: x + 99, z },
        ],
        count: 10000,
        recaptcha: 'bench',
        force: true,
      }),
    });
    const json = await response.json();
    if (response.status !== 201) {
      throw new Error(`city seed failed: ${response.status} ${JSON.stringify(json)}`);
    }
    cities.push({ id: json.cityId, owner: uuidFor(index) });
  }
  return cities;
}

module.exports = { seed, seedCities, uuidFor, mcidFor, tokenFor, randomBytes };
