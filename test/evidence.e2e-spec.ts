import sharp from 'sharp';
import { ApiError } from '../src/common/errors/api-error';
import { UnitOfWork } from '../src/database/unit-of-work';
import { EvidenceReader } from '../src/evidence/evidence.reader';
import { EvidenceService } from '../src/evidence/evidence.service';
import type { RecordRef } from '../src/evidence/record-ref';
import { expectError, TestApp } from './support/test-app';

/** Evidence pictures (docs/bans-site.md, "Evidence pictures"): stored through the service, served by `GET /evidence/{name}`. */
describe('evidence pictures (e2e)', () => {
  let app: TestApp;
  let evidence: EvidenceService;
  let reader: EvidenceReader;

  const store = async (record: RecordRef, body: Buffer, addedBy = 'Moderator'): Promise<string> => {
    const picture = await evidence.prepare(body);
    const stored = await app.app.get(UnitOfWork).transaction((tx) => evidence.store(tx, record, picture, addedBy));
    return stored.name;
  };
  const png = (width: number, height: number): Promise<Buffer> => sharp({ create: { width, height, channels: 3, background: '#c33' } }).png().toBuffer();

  beforeAll(async () => {
    app = await TestApp.start({ CORS_ORIGINS: 'https://bans.example.org' });
    evidence = app.app.get(EvidenceService);
    reader = app.app.get(EvidenceReader);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('serves a stored picture: its bytes and type, nosniff, public CORS, an ETag and a year of cache', async () => {
    const body = await sharp({ create: { width: 12, height: 7, channels: 3, background: '#08f' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-owner' } })
      .toBuffer();
    const name = await store({ kind: 'vban', id: '41' }, body);
    expect(name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    const response = await fetch(new URL(`/evidence/${name}`, app.baseUrl), { headers: { origin: 'https://bans.example.org' } });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect({
      status: response.status,
      type: response.headers.get('content-type'),
      nosniff: response.headers.get('x-content-type-options'),
      cache: response.headers.get('cache-control'),
      etag: response.headers.get('etag'),
      cors: response.headers.get('access-control-allow-origin'),
      corp: response.headers.get('cross-origin-resource-policy'),
    }).toEqual({
      status: 200,
      type: 'image/jpeg',
      nosniff: 'nosniff',
      cache: 'public, max-age=31536000, immutable',
      etag: `"${name}"`,
      cors: expect.stringMatching(/^(\*|https:\/\/bans\.example\.org)$/),
      corp: 'cross-origin',
    });
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
    expect(bytes.toString('latin1')).not.toContain('secret-owner');
    // The same under /v1, and HEAD.
    expect((await app.request('HEAD', `/v1/evidence/${name}`)).status).toBe(200);
    const again = await fetch(new URL(`/evidence/${name}`, app.baseUrl), { headers: { 'if-none-match': `"${name}"` } });
    expect(again.status).toBe(304);
  });

  it('an unknown name, or text that is no name, is 404 in the envelope (with the public headers)', async () => {
    for (const name of ['0123456789abcdef0123456789abcdef.png', 'x.svg', '..%2Fetc%2Fpasswd', `${'a'.repeat(32)}.PNG`]) {
      const result = await app.get(`/evidence/${name}`);
      expectError(result, 404, 'not_found');
      expect(result.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it("lists a record's pictures oldest first, apart from other records' and kinds'; remove takes one away", async () => {
    const record: RecordRef = { kind: 'eban', id: '7' };
    const first = await store(record, await png(3, 2), 'First');
    const second = await store(record, await png(5, 4), 'Second');
    await store({ kind: 'vban', id: '7' }, await png(2, 2));
    await store({ kind: 'eban', id: '70' }, await png(2, 2));
    expect(await reader.namesFor(record)).toEqual([first, second]);
    const files = await reader.filesFor(record);
    expect(files).toEqual([
      { name: first, contentType: 'image/png', size: expect.any(Number), width: 3, height: 2, addedBy: 'First', addedAt: expect.any(Date) },
      { name: second, contentType: 'image/png', size: expect.any(Number), width: 5, height: 4, addedBy: 'Second', addedAt: expect.any(Date) },
    ]);
    const served = Buffer.from(await (await fetch(new URL(`/evidence/${first}`, app.baseUrl))).arrayBuffer());
    expect(served.length).toBe(files[0].size);

    const unitOfWork = app.app.get(UnitOfWork);
    // Another record's name removes nothing.
    expect(await unitOfWork.transaction((tx) => evidence.remove(tx, { kind: 'eban', id: '70' }, first))).toBe(false);
    expect(await unitOfWork.transaction((tx) => evidence.remove(tx, record, first))).toBe(true);
    expect(await unitOfWork.transaction((tx) => evidence.remove(tx, record, first))).toBe(false);
    expect(await reader.namesFor(record)).toEqual([second]);
    expectError(await app.get(`/evidence/${first}`), 404, 'not_found');
  });

  it('refuses an SVG with 415 and a truncated picture with 400, in the envelope', async () => {
    const refused = async (body: Buffer): Promise<{ status: number; code: string; message: string }> => {
      const error = await evidence.prepare(body).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      if (!(error instanceof ApiError)) {
        throw new Error('not refused with an ApiError');
      }
      return { status: error.getStatus(), code: error.code, message: error.text.en };
    };
    expect(await refused(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({ status: 415, code: 'invalid_request', message: expect.stringContaining('SVG') });
    const body = await png(64, 64);
    expect(await refused(body.subarray(0, body.length - 40))).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});
