import { baseIdentity, MAX_IDENTITY_LENGTH, RowIdentities, rowHash, type IdentityPlan } from './row-identity';

describe('row-identity', () => {
  const hashed: IdentityPlan = { key: [], unique: false, columns: ['uuid', 'seconds', 'created_at'] };
  const byId: IdentityPlan = { key: ['id'], unique: false, columns: ['id', 'uuid'] };

  describe(rowHash.name, () => {
    it('is the same whatever the column order, and tells NULL from the text NULL and numbers from their text only by value', () => {
      const row = { uuid: 'a', seconds: '5', created_at: '2020-01-01 00:00:00' };
      expect(rowHash(row, ['uuid', 'seconds', 'created_at'])).toBe(rowHash(row, ['created_at', 'uuid', 'seconds']));
      expect(rowHash({ ...row, uuid: null }, hashed.columns)).not.toBe(rowHash({ ...row, uuid: 'NULL' }, hashed.columns));
      expect(rowHash({ ...row, seconds: 5 }, hashed.columns)).toBe(rowHash(row, hashed.columns));
      expect(rowHash(row, hashed.columns)).toMatch(/^h:[0-9a-f]{40}$/);
    });

    it('reads binary values by their bytes', () => {
      expect(rowHash({ flag: Buffer.from([1]) }, ['flag'])).not.toBe(rowHash({ flag: Buffer.from([0]) }, ['flag']));
    });
  });

  describe(baseIdentity.name, () => {
    it('is the key values joined by a slash, NULL spelled out; a long key is hashed', () => {
      expect(baseIdentity({ id: 12, uuid: 'x' }, byId)).toBe('12');
      expect(baseIdentity({ a: 'x', b: null }, { key: ['a', 'b'], unique: false, columns: ['a', 'b'] })).toBe('x/NULL');
      const long = baseIdentity({ id: 'y'.repeat(100) }, byId);
      expect(long).toMatch(/^h:/);
      expect(long.length).toBeLessThanOrEqual(MAX_IDENTITY_LENGTH - 6);
    });

    it('hashes a key with spaces or characters outside printable ASCII (a sender id holds neither)', () => {
      expect(baseIdentity({ id: 'a b' }, byId)).toMatch(/^h:/);
      expect(baseIdentity({ id: 'まち' }, byId)).toMatch(/^h:/);
      expect(baseIdentity({ id: '' }, byId)).toMatch(/^h:/);
    });

    it('never takes a key value that looks like a hash for one', () => {
      expect(baseIdentity({ id: 'h:abc' }, byId)).not.toBe('h:abc');
    });
  });

  describe(RowIdentities.name, () => {
    it('numbers adjacent copies of one identity #2, #3 and starts again at the next identity', () => {
      const identities = new RowIdentities(byId);
      const ids = [{ id: 1 }, { id: 7 }, { id: 7 }, { id: 7 }, { id: 8 }, { id: 8 }].map((row) => identities.next(row));
      expect(ids.map((entry) => entry.id)).toEqual(['1', '7', '7#2', '7#3', '8', '8#2']);
      expect(ids.map((entry) => entry.copy)).toEqual([1, 1, 2, 3, 1, 2]);
    });

    it('gives identical rows of a keyless table their copy numbers, and the same ids on a second pass', () => {
      const rows = [
        { uuid: 'a', seconds: '5', created_at: null },
        { uuid: 'a', seconds: '5', created_at: null },
        { uuid: 'b', seconds: '5', created_at: null },
      ];
      const first = new RowIdentities(hashed);
      const second = new RowIdentities(hashed);
      const ids = rows.map((row) => first.next(row).id);
      expect(ids[1]).toBe(`${ids[0]}#2`);
      expect(ids[2]).not.toMatch(/#/);
      expect(rows.map((row) => second.next(row).id)).toEqual(ids);
      expect(Math.max(...ids.map((id) => id.length))).toBeLessThanOrEqual(MAX_IDENTITY_LENGTH);
    });
  });
});
