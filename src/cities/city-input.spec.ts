import { ApiError } from '../common/errors/api-error';
import { checkRegionName, CurrentCity, editDraft, EditFields, withoutUnchanged } from './city-input';
import { checkRegion } from './city-input';

const limits = { limit: 250_000, max: 2_500_000 };
const corners = [
  { id: 1, x: 0, z: 0 },
  { id: 2, x: 0, z: 9 },
  { id: 3, x: 9, z: 9 },
  { id: 4, x: 9, z: 0 },
];
const current: CurrentCity = {
  name: 'Chuo',
  nameKana: 'ちゅうおう',
  summary: 'Central',
  origin: null,
  regionName: 'chuo',
  corners: corners.map((corner) => ({ x: String(corner.x), z: String(corner.z) })),
};

function fieldError(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return error instanceof ApiError ? error.details?.[0]?.field : 'not an ApiError';
  }
  return undefined;
}

describe(checkRegionName.name, () => {
  it('trims and lower-cases; keeps "" as ""', () => {
    expect(checkRegionName('  Chuo_Ward-2 ')).toBe('chuo_ward-2');
    expect(checkRegionName('   ')).toBe('');
  });

  it.each(['a b', 'a'.repeat(33), 'ちゅう', 'a.b', 'a/b'])('refuses %j', (raw) => {
    expect(fieldError(() => checkRegionName(raw))).toBe('regionName');
  });
});

describe(withoutUnchanged.name, () => {
  const region = checkRegion({ corners, count: 100 }, limits);

  it('drops every field equal to the current value, names compared as stored', () => {
    const fields: EditFields = {
      name: { value: 'Chuo', key: 'chuo' },
      kana: { value: 'ちゅうおう', key: 'ちゅうおう' },
      summary: 'Central',
      origin: '',
      regionName: 'chuo',
      region,
      remarks: 'note',
    };
    expect(withoutUnchanged(fields, current)).toEqual({ remarks: 'note' });
  });

  it('keeps a case change of a name, a cleared region name and corners in another order', () => {
    const rotated = checkRegion({ corners: [...corners.slice(1), corners[0]].map((corner, index) => ({ ...corner, id: index + 1 })), count: 100 }, limits);
    const fields: EditFields = { name: { value: 'CHUO', key: 'chuo' }, regionName: '', region: rotated, remarks: null };
    expect(withoutUnchanged(fields, current)).toEqual(fields);
  });
});

describe(editDraft.name, () => {
  const region = checkRegion({ corners, count: 100 }, limits);

  it('answers 400 when nothing but remarks is left', () => {
    expect(fieldError(() => editDraft({ remarks: 'only a note' }))).toBe('cityName');
  });

  it('refuses corners together with an information field, regionName included', () => {
    expect(fieldError(() => editDraft({ region, regionName: 'x', remarks: null }))).toBe('corners');
  });

  it('makes corners a region change and the rest an update', () => {
    expect(editDraft({ region, remarks: null })).toMatchObject({ type: 'region' });
    expect(editDraft({ summary: 'new', remarks: null })).toEqual({ type: 'update', summary: 'new', remarks: null });
  });
});
