import { UnreadableRow } from './original-mapping';
import { countOf, decimalOf, discriminatorOf, githubIdOf, groupOf, homeUrlOf, inForceOf, nameAtTheTime, optionalInstantOf, twitterIdOf } from './feature-rows';

describe('feature-rows', () => {
  describe(countOf.name, () => {
    it('reads whole numbers given as numbers or text (also 12.0) and refuses the rest', () => {
      expect(countOf('12', 'count')).toBe(12);
      expect(countOf(0, 'count')).toBe(0);
      expect(countOf('7.00', 'count')).toBe(7);
      for (const value of ['-1', '1.5', 'abc', null, '99999999999', '']) {
        expect(() => countOf(value, 'count')).toThrow(UnreadableRow);
      }
    });

    it('names the column', () => {
      expect(() => countOf('x', 'onlinetime')).toThrow(/onlinetime "x"/);
    });
  });

  describe(decimalOf.name, () => {
    it('reads durations with a fraction, at least the minimum', () => {
      expect(decimalOf('30.5', 'real_match_time')).toBe(30.5);
      expect(decimalOf(30010, 'calc_match_time')).toBe(30010);
      expect(() => decimalOf('-1', 'calc_match_time')).toThrow(/is not a number from 0/);
      expect(() => decimalOf('NaN', 'calc_match_time')).toThrow(UnreadableRow);
    });
  });

  describe(optionalInstantOf.name, () => {
    it('reads the wall clock in the source zone, Unix seconds or milliseconds, and NULL as null', () => {
      expect(optionalInstantOf('2020-01-01 09:00:00', 540, 'last')?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
      expect(optionalInstantOf('1577836800', 540, 'last')?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
      expect(optionalInstantOf('1577836800000', 540, 'last')?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
      expect(optionalInstantOf(null, 540, 'last')).toBeNull();
      expect(optionalInstantOf(undefined, 540, 'last')).toBeNull();
      expect(() => optionalInstantOf('2021-02-30 00:00:00', 540, 'last')).toThrow(UnreadableRow);
    });
  });

  describe(inForceOf.name, () => {
    it('reads booleans, BIT values and the strings punishing / end', () => {
      expect([1, '1', 'true', 'punishing', 'PUNISHING', Buffer.from([1])].map(inForceOf)).toEqual([true, true, true, true, true, true]);
      expect([0, '0', 'false', 'end', 'End', Buffer.from([0])].map(inForceOf)).toEqual([false, false, false, false, false, false]);
      expect(() => inForceOf('maybe')).toThrow(UnreadableRow);
      expect(() => inForceOf(null)).toThrow(UnreadableRow);
    });
  });

  describe(groupOf.name, () => {
    it('lowercases the group and reads none as default', () => {
      expect(groupOf('Admin')).toBe('admin');
      expect(groupOf(' CommunityRegular ')).toBe('communityregular');
      expect(groupOf(null)).toBe('default');
      expect(groupOf('')).toBe('default');
    });
  });

  describe(discriminatorOf.name, () => {
    it('keeps four digits and reads none, zero or junk as "0"', () => {
      expect(discriminatorOf('0420')).toBe('0420');
      expect(discriminatorOf('42')).toBe('0042');
      expect(discriminatorOf('0')).toBe('0');
      expect(discriminatorOf(null)).toBe('0');
      expect(discriminatorOf('abcd')).toBe('0');
    });
  });

  describe(nameAtTheTime.name, () => {
    it('keeps a game id, else the text as recorded, cut to 64 characters', () => {
      expect(nameAtTheTime('Alice_1')).toBe('Alice_1');
      expect(nameAtTheTime('[Jaotan]')).toBe('[Jaotan]');
      expect(nameAtTheTime('x'.repeat(70))).toHaveLength(64);
      expect(nameAtTheTime(null)).toBeNull();
    });
  });

  describe('profile links', () => {
    it('reads a twitter id as given, a GitHub login (also from a profile URL) and an http(s) home URL', () => {
      expect(twitterIdOf('@jao_afa')).toEqual({ value: '@jao_afa' });
      expect(githubIdOf('https://github.com/octo-cat/')).toEqual({ value: 'octo-cat' });
      expect(githubIdOf('octocat')).toEqual({ value: 'octocat' });
      expect(homeUrlOf('https://example.com/me')).toEqual({ value: 'https://example.com/me' });
      expect(twitterIdOf(null)).toEqual({ value: null });
    });

    it('drops a value that is not one, saying why', () => {
      expect(githubIdOf('-bad-')).toEqual({ value: null, dropped: expect.stringMatching(/not a GitHub login/) as string });
      expect(homeUrlOf('javascript:alert(1)')).toEqual({ value: null, dropped: expect.stringMatching(/not an http\(s\) URL/) as string });
      expect(twitterIdOf('has space')).toEqual({ value: null, dropped: expect.stringMatching(/not an account name/) as string });
    });
  });
});
