import { boundFor, compareKeys, decodeCursor, encodeCursor, type RecordKey } from './record-cursor';

describe('record cursor', () => {
  const key: RecordKey = { at: new Date('2026-11-20T01:02:03.456Z'), rank: 1, id: 42 };

  it('reads back what it wrote, and nothing else', () => {
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
    expect(decodeCursor('')).toBeUndefined();
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(decodeCursor(Buffer.from('1.2.3').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('1.0.0').toString('base64url'))).toBeUndefined();
  });

  it('bounds each source so that the merged order continues after the key', () => {
    expect(boundFor(key, 1)).toEqual({ at: key.at, idBelow: 42 });
    expect(boundFor(key, 0)).toEqual({ at: key.at, idBelow: Number.MAX_SAFE_INTEGER });
    expect(boundFor({ ...key, rank: 0 }, 1)).toEqual({ at: key.at, idBelow: 0 });
  });

  it('orders newest first, then punishments before community bans, then by id', () => {
    const keys: RecordKey[] = [
      { at: new Date(1000), rank: 0, id: 9 },
      { at: new Date(2000), rank: 0, id: 1 },
      { at: new Date(1000), rank: 1, id: 3 },
      { at: new Date(1000), rank: 1, id: 5 },
    ];
    expect([...keys].sort(compareKeys)).toEqual([keys[1], keys[3], keys[2], keys[0]]);
  });
});
