import { LoginInput, prepareLoginBatch } from './login-batch';

const cutoff = new Date('2018-03-20T00:00:00+09:00');
const uuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const login = (at: string, mcid = 'Notch', permission: string | null = null, who = uuid): LoginInput => ({ uuid: who, mcid, loggedInAt: new Date(at), permission });

describe(prepareLoginBatch.name, () => {
  it('drops records before the cutoff and keeps one exactly at it', () => {
    const batch = prepareLoginBatch([login('2018-03-19T14:59:59.999Z'), login('2018-03-19T15:00:00.000Z')], cutoff);
    expect(batch.beforeCutoff).toBe(1);
    expect(batch.records.map((record) => record.loggedInAt.toISOString())).toEqual(['2018-03-19T15:00:00.000Z']);
  });

  it('removes repeats of one uuid and time, whatever the uuid case, keeping the first', () => {
    const batch = prepareLoginBatch([login('2020-01-01T00:00:00Z', 'First'), login('2020-01-01T00:00:00.000Z', 'Second', null, uuid.toUpperCase())], cutoff);
    expect(batch.repeatsInBatch).toBe(1);
    expect(batch.records).toEqual([expect.objectContaining({ uuid, mcid: 'First' })]);
  });

  it('summarises each player: earliest login, and the latest login for name and permission', () => {
    const other = '11111111-2222-4333-8444-555555555555';
    const batch = prepareLoginBatch(
      [login('2020-05-01T00:00:00Z', 'Middle', 'b'), login('2021-01-01T00:00:00Z', 'Latest', 'c'), login('2019-01-01T00:00:00Z', 'Earliest', 'a'), login('2020-01-01T00:00:00Z', 'Other', null, other)],
      cutoff,
    );
    expect(batch.players).toEqual([
      { uuid, firstLogin: new Date('2019-01-01T00:00:00Z'), latest: expect.objectContaining({ mcid: 'Latest', permission: 'c' }) },
      { uuid: other, firstLogin: new Date('2020-01-01T00:00:00Z'), latest: expect.objectContaining({ mcid: 'Other' }) },
    ]);
  });

  it('returns no players when everything is before the cutoff', () => {
    expect(prepareLoginBatch([login('2018-01-01T00:00:00Z')], cutoff)).toEqual({ records: [], beforeCutoff: 1, repeatsInBatch: 0, players: [] });
  });
});
