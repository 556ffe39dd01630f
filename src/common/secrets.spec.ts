import { hashSecret, newApiKey, newClubToken, newUserKey, randomString } from './secrets';

describe('secrets', () => {
  it('makes tokens and keys in their documented formats', () => {
    expect(newClubToken()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(newUserKey()).toMatch(/^[A-Za-z]{10}$/);
    expect(newApiKey()).toMatch(/^csk_[A-Za-z0-9]{40}$/);
  });

  it('does not repeat itself', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newClubToken()));
    expect(tokens.size).toBe(1000);
  });

  it('uses every character of the alphabet', () => {
    expect(new Set(randomString(5000, 'abc')).size).toBe(3);
  });

  it('hashes deterministically to hex sha256', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
