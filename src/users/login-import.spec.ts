import { Readable } from 'node:stream';
import { detectFormat, ImportFormat, ImportFormatError, ImportRow, readLoginRows, toLoginInput } from './login-import';

async function rows(text: string, format: ImportFormat): Promise<ImportRow[]> {
  const out: ImportRow[] = [];
  for await (const row of readLoginRows(Readable.from([text]), format)) {
    out.push(row);
  }
  return out;
}

const uuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

describe('login import', () => {
  it('tells the format from the extension', () => {
    expect(detectFormat('/tmp/a.CSV')).toBe('csv');
    expect(detectFormat('x.jsonl')).toBe('jsonl');
    expect(detectFormat('x.ndjson')).toBe('jsonl');
    expect(detectFormat('x.txt')).toBeUndefined();
  });

  it('validates one record', () => {
    expect(toLoginInput({ uuid: uuid.replace(/-/g, '').toUpperCase(), mcid: ' Notch ', loggedInAt: '2020-01-01T00:00:00Z', permission: '' })).toEqual({
      uuid,
      mcid: 'Notch',
      loggedInAt: new Date('2020-01-01T00:00:00Z'),
      permission: null,
    });
    expect(toLoginInput({ uuid, mcid: 'Notch', loggedInAt: 1577836800000 })).toMatchObject({ loggedInAt: new Date('2020-01-01T00:00:00Z') });
    expect(toLoginInput({ uuid: 'x', mcid: 'Notch', loggedInAt: '2020-01-01T00:00:00Z' })).toMatch(/uuid/);
    expect(toLoginInput({ uuid, mcid: 'bad name', loggedInAt: '2020-01-01T00:00:00Z' })).toMatch(/mcid/);
    expect(toLoginInput({ uuid, mcid: 'Notch', loggedInAt: '2020-01-01 00:00:00' })).toMatch(/loggedInAt/);
    expect(toLoginInput({ uuid, mcid: 'Notch', loggedInAt: '2020-01-01T00:00:00Z', permission: 5 })).toMatch(/permission/);
    expect(toLoginInput([1, 2])).toBe('not an object');
  });

  it('refuses a time no datetime column holds on both databases, in any zone or as epoch milliseconds', () => {
    for (const loggedInAt of ['9999-12-31T23:00:00-05:00', '0999-12-31T23:59:59.999Z', 8.64e15, -62_000_000_000_000, 253_402_300_800_000]) {
      expect(toLoginInput({ uuid, mcid: 'Notch', loggedInAt })).toBe('loggedInAt must be from 1000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (UTC)');
    }
    expect(toLoginInput({ uuid, mcid: 'Notch', loggedInAt: 253_402_300_799_999 })).toMatchObject({ loggedInAt: new Date('9999-12-31T23:59:59.999Z') });
    expect(toLoginInput({ uuid, mcid: 'Notch', loggedInAt: '1000-01-01T09:00:00+09:00' })).toMatchObject({ loggedInAt: new Date('1000-01-01T00:00:00.000Z') });
  });

  it('reads CSV with its header, numbering lines as in the file', async () => {
    const csv = `uuid,mcid,loggedInAt,permission\r\n${uuid},Notch,2020-01-01T00:00:00Z,admin\r\n\r\n${uuid},bad name,2020-01-01T00:00:00Z,\r\n${uuid},"Notch",2020-01-02T00:00:00Z\r\n`;
    expect(await rows(csv, 'csv')).toEqual([
      { line: 2, record: { uuid, mcid: 'Notch', loggedInAt: new Date('2020-01-01T00:00:00Z'), permission: 'admin' } },
      { line: 4, reason: expect.stringMatching(/mcid/) },
      { line: 5, record: expect.objectContaining({ permission: null }) },
    ]);
  });

  it('accepts the columns in any order and refuses a header without them', async () => {
    expect(await rows(`loggedInAt,mcid,uuid\n2020-01-01T00:00:00Z,Notch,${uuid}\n`, 'csv')).toEqual([{ line: 2, record: expect.objectContaining({ mcid: 'Notch' }) }]);
    await expect(rows(`uuid,name\n${uuid},Notch\n`, 'csv')).rejects.toThrow(ImportFormatError);
  });

  it('reads JSON Lines, skipping blank lines and reporting broken ones', async () => {
    const jsonl = `{"uuid":"${uuid}","mcid":"Notch","loggedInAt":"2020-01-01T00:00:00Z"}\n\n{not json\n{"uuid":"${uuid}","mcid":"Notch","loggedInAt":"2020-01-02T00:00:00Z","permission":"vip"}`;
    expect(await rows(jsonl, 'jsonl')).toEqual([
      { line: 1, record: expect.objectContaining({ permission: null }) },
      { line: 3, reason: 'not valid JSON' },
      { line: 4, record: expect.objectContaining({ permission: 'vip' }) },
    ]);
  });
});
