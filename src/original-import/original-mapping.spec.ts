import { cornersOf, flagOf, instantOf, loginSucceeded, outsideWorld, parseZoneOffset, requestStatusOf, shapeProblem, UnreadableRow, uuidOf } from './original-mapping';

describe('original-mapping', () => {
  describe(parseZoneOffset.name, () => {
    it('reads ±HH:MM offsets and nothing else', () => {
      expect(parseZoneOffset('+09:00')).toBe(540);
      expect(parseZoneOffset('-03:30')).toBe(-210);
      expect(parseZoneOffset('+00:00')).toBe(0);
      expect(parseZoneOffset('Asia/Tokyo')).toBeUndefined();
      expect(parseZoneOffset('+9:00')).toBeUndefined();
      expect(parseZoneOffset('+15:00')).toBeUndefined();
    });
  });

  describe(instantOf.name, () => {
    it('reads the wall clock in the source zone (JST just after midnight is the previous UTC day)', () => {
      expect(instantOf('2019-01-01 00:30:00', 540, 'date').toISOString()).toBe('2018-12-31T15:30:00.000Z');
      expect(instantOf('2019-01-01 00:30:00.25', 0, 'date').toISOString()).toBe('2019-01-01T00:30:00.250Z');
    });

    it('refuses dates that do not exist, zero dates and text', () => {
      for (const value of ['2021-02-30 10:00:00', '0000-00-00 00:00:00', '2021-13-01 00:00:00', '2021-01-01 24:00:00', 'yesterday', null]) {
        expect(() => instantOf(value, 540, 'date')).toThrow(UnreadableRow);
      }
    });
  });

  describe(uuidOf.name, () => {
    it('accepts hyphenated or bare uuids in any case and hyphenates them in lower case', () => {
      expect(uuidOf('0F3B5A8E-1C2D-4E5F-8A9B-0C1D2E3F4A5B')).toBe('0f3b5a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b');
      expect(uuidOf('0f3b5a8e1c2d4e5f8a9b0c1d2e3f4a5b')).toBe('0f3b5a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b');
      expect(() => uuidOf('not-a-uuid')).toThrow(UnreadableRow);
      expect(() => uuidOf(null)).toThrow(UnreadableRow);
    });
  });

  describe(cornersOf.name, () => {
    it('reads x/z given as strings or numbers, in corner id order', () => {
      const asStrings = '[{"id":1,"x":"0","z":"0"},{"id":2,"x":"0","z":"9"},{"id":3,"x":"9","z":"9"},{"id":4,"x":"-9","z":"0"}]';
      const asNumbers = '[{"id":2,"x":0,"z":9},{"id":1,"x":0,"z":0},{"id":3,"x":9,"z":9},{"id":4,"x":-9,"z":0}]';
      const expected = [
        { x: 0, z: 0 },
        { x: 0, z: 9 },
        { x: 9, z: 9 },
        { x: -9, z: 0 },
      ];
      expect(cornersOf(asStrings)).toEqual(expected);
      expect(cornersOf(asNumbers)).toEqual(expected);
    });

    it('refuses what is not JSON, not a list or has no integer coordinates', () => {
      expect(() => cornersOf('not json')).toThrow('corners is not JSON');
      expect(() => cornersOf('{"x":1}')).toThrow(UnreadableRow);
      expect(() => cornersOf('[{"x":"a","z":1},{"x":1,"z":1},{"x":1,"z":2}]')).toThrow('corner 1 has no integer x');
    });
  });

  describe(requestStatusOf.name, () => {
    it('0 is pending, but approved once applied to a city; 1 approved; -1 rejected', () => {
      expect(requestStatusOf(0, null)).toBe('pending');
      expect(requestStatusOf('0', 12)).toBe('approved');
      expect(requestStatusOf(1, 12)).toBe('approved');
      expect(requestStatusOf(-1, null)).toBe('rejected');
      expect(() => requestStatusOf(2, null)).toThrow(UnreadableRow);
    });
  });

  it('login_success: only 1, "1", "Y", "yes", "true" (any case) or a set bit is a successful login', () => {
    for (const value of [1, '1', 'Y', 'y', 'yes', 'YES', 'true', 'True', Buffer.from([1]), BigInt(1)]) {
      expect(loginSucceeded(value as never)).toBe(true);
    }
    for (const value of [0, '0', 'N', 'n', 'no', 'false', 'FALSE', '', ' ', 2, '2', -1, 'ok', null, undefined, Buffer.from([0]), Buffer.from([2])]) {
      expect(loginSucceeded(value as never)).toBe(false);
    }
  });

  it("corners outside the world's bounds, however far", () => {
    expect(outsideWorld([{ x: 0, z: 0 }, { x: 30_000_000, z: -30_000_000 }])).toBe(false);
    expect(outsideWorld([{ x: 0, z: 0 }, { x: 1e300, z: 0 }])).toBe(true);
    expect(outsideWorld([{ x: 0, z: -(2 ** 53) }])).toBe(true);
  });

  it('flags: numbers, text and BIT(1) buffers', () => {
    expect(flagOf(1)).toBe(true);
    expect(flagOf('0')).toBe(false);
    expect(flagOf(Buffer.from([1]))).toBe(true);
    expect(flagOf(Buffer.from([0]))).toBe(false);
    expect(flagOf(null)).toBe(false);
  });

  it('names what breaks today shape rules, without refusing it', () => {
    expect(shapeProblem([{ x: 0, z: 0 }, { x: 0, z: 9 }, { x: 9, z: 9 }, { x: 9, z: 0 }])).toBeUndefined();
    expect(shapeProblem([{ x: 0, z: 0 }, { x: 0, z: 9 }, { x: 9, z: 0 }])).toEqual(expect.any(String));
  });
});
