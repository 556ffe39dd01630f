import { createOriginalSource, originalCorners, OriginalSource } from './support/original-source';
import { runCli } from './support/run-cli';
import { newPlayer } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** Rows of 1.5 M characters each: 60 of them are 270 MB on the wire and 180 MB as strings, far over the heap below. */
const HUGE_ROWS = 60;
const SUMMARY_CHARACTERS = 1_500_000;
/** A heap far smaller than the image's 512 MB: a page of these rows read whole would not fit. */
const HEAP_MB = 128;
const KANA_DIGITS = 'あいうえおかきくけこ';

/**
 * Source rows are paged by bytes as well as by count (docs/moving-from-original.md, "Memory"):
 * huge texts are read a few rows at a time, so they cannot exhaust the heap.
 */
describe('import:original: huge rows under a small heap (e2e)', () => {
  let source: OriginalSource;
  let target: TestDatabase;
  const owner = newPlayer();

  beforeAll(async () => {
    source = await createOriginalSource(['login', 'cities']);
    await source.query('ALTER TABLE cities MODIFY summary MEDIUMTEXT');
    await source.query("INSERT INTO login (player, uuid, date, login_success) VALUES ('Owner', ?, '2020-01-01 00:00:00', 1)", [owner.uuid]);
    const summary = 'あ'.repeat(SUMMARY_CHARACTERS);
    for (let index = 0; index < HUGE_ROWS; index += 1) {
      await source.query('INSERT INTO cities (name, namekana, player, uuid, summary, corners, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        `Huge ${index}`,
        // Readings must differ too: kana digits.
        `おおきい${KANA_DIGITS[Math.floor(index / 10)]}${KANA_DIGITS[index % 10]}`,
        'Owner',
        owner.uuid,
        summary,
        originalCorners(index * 100, 0, 10, true),
        '2019-01-01 00:00:00',
      ]);
    }
    target = await createTestDatabase();
  }, 180_000);

  afterAll(async () => {
    await target?.drop();
    await source?.drop();
  });

  it(`${HUGE_ROWS} rows of ${SUMMARY_CHARACTERS} characters are all accounted for with a ${HEAP_MB} MB heap`, async () => {
    const run = await runCli(['import:original', '--from', source.url, '--json'], {
      DATABASE_URL: target.url,
      DATA_CUTOFF: '2018-03-20T00:00:00+09:00',
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    });
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-500) }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout) as { tables: Record<string, { read: number; imported: number; problems: number; sourceRows: number }>; problems: Array<{ reason: string }> };
    const cities = report.tables.cities;
    expect(cities.read).toBe(HUGE_ROWS);
    expect(cities.sourceRows).toBe(HUGE_ROWS);
    if (target.url.startsWith('sqlite:')) {
      // SQLite holds texts this long.
      expect(cities).toMatchObject({ imported: HUGE_ROWS, problems: 0 });
    } else {
      // A MariaDB TEXT column does not: every row reported, none lost silently.
      expect(cities).toMatchObject({ imported: 0, problems: HUGE_ROWS });
      expect(report.problems.find((problem) => /^summary/.test(problem.reason))?.reason).toMatch(/summary is 4500000 bytes, over the 65535/);
    }
  }, 300_000);
});
