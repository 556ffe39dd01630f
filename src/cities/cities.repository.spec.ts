import { CityViewRow, toCityView } from './cities.repository';

const row: CityViewRow = {
  id: 12,
  name: 'Chuo',
  nameKana: 'ちゅうおう',
  summary: null,
  origin: 'o',
  regionName: 'chuo',
  corners: '[[-100,200],[0,200],[0,300]]',
  blockCount: 10201,
  reason: null,
  remarks: null,
  ownerUuid: 'u',
  ownerMcid: 'Notch',
  ownerChatid: null,
  createdAt: '2026-11-22 03:04:05.000',
  updatedAt: '2026-11-22 03:04:06.500',
};

describe(toCityView.name, () => {
  it('writes the city object from a SQLite row', () => {
    expect(JSON.stringify(toCityView(row))).toBe(
      JSON.stringify({
        id: 12,
        name: 'Chuo',
        nameKana: 'ちゅうおう',
        summary: null,
        origin: 'o',
        regionName: 'chuo',
        corners: [
          { id: 1, x: '-100', z: '200' },
          { id: 2, x: '0', z: '200' },
          { id: 3, x: '0', z: '300' },
        ],
        count: 10201,
        reason: null,
        remarks: null,
        owner: { uuid: 'u', mcid: 'Notch', chatid: null },
        createdAt: '2026-11-22T03:04:05.000Z',
        updatedAt: '2026-11-22T03:04:06.500Z',
      }),
    );
  });

  it('maps MySQL values (DATETIME as a Date) and a missing owner', () => {
    const view = toCityView({ ...row, id: 12, blockCount: 10201, ownerMcid: null, createdAt: new Date('2026-11-22T03:04:05.000Z'), updatedAt: new Date('2026-11-22T03:04:06.500Z') });
    expect(view).toMatchObject({ id: 12, count: 10201, owner: { uuid: 'u', mcid: null, chatid: null }, createdAt: '2026-11-22T03:04:05.000Z', updatedAt: '2026-11-22T03:04:06.500Z' });
  });
});
