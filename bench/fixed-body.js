// The fixed JSON body both baselines answer: a city response of about 500 bytes, shaped like ours.
module.exports = {
  status: true,
  code: 200,
  version: 'baseline',
  data: {
    id: 12,
    name: 'Chuo',
    nameKana: 'ちゅうおう',
    summary: 'A quiet harbour town with a long main street and a market every weekend.',
    origin: 'Named after the central district of the old map.',
    corners: [
      { id: 1, x: '-100', z: '200' },
      { id: 2, x: '-100', z: '300' },
      { id: 3, x: '0', z: '300' },
      { id: 4, x: '0', z: '200' },
    ],
    count: 10201,
    reason: null,
    remarks: null,
    owner: { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', mcid: 'Notch', chatid: null },
    createdAt: '2026-11-22T03:04:05.000Z',
    updatedAt: '2026-11-22T03:04:05.000Z',
  },
};
