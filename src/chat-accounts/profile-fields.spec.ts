import { applyLinksChange, defaultAvatarUrl, importedLinks, isGithubLogin, isTwitterId, isWebUrl, normaliseDiscriminator } from './profile-fields';

describe('profile-fields', () => {
  describe(defaultAvatarUrl.name, () => {
    it('picks one of six by the id for accounts without a discriminator', () => {
      // 175928847299117063 >> 22 = 41944705796, % 6 = 2; 80351110224678912 >> 22 = 19157197529, % 6 = 5.
      expect(defaultAvatarUrl('175928847299117063', '0')).toBe('https://cdn.discordapp.com/embed/avatars/2.png');
      expect(defaultAvatarUrl('80351110224678912', '0')).toBe('https://cdn.discordapp.com/embed/avatars/5.png');
    });

    it('picks one of five by the discriminator for the older accounts', () => {
      expect(defaultAvatarUrl('123456789012345678', '1337')).toBe('https://cdn.discordapp.com/embed/avatars/2.png');
      expect(defaultAvatarUrl('123456789012345678', '0005')).toBe('https://cdn.discordapp.com/embed/avatars/0.png');
    });
  });

  it.each([
    [undefined, '0'],
    [null, '0'],
    ['', '0'],
    ['0000', '0'],
    ['0', '0'],
    ['1234', '1234'],
    ['0042', '0042'],
    ['12345', '0'],
    ['ab', '0'],
  ])('normaliseDiscriminator(%p) = %p', (input, expected) => {
    expect(normaliseDiscriminator(input)).toBe(expected);
  });

  it.each([
    ['https://example.com/', true],
    ['http://example.com/a?b=c', true],
    ['ftp://example.com/', false],
    ['javascript:alert(1)', false],
    ['example.com', false],
    ['https://exa mple.com/', false],
    [`https://example.com/${'a'.repeat(500)}`, false],
  ])('isWebUrl(%p) = %p', (input, expected) => {
    expect(isWebUrl(input)).toBe(expected);
  });

  it.each([
    ['octocat', true],
    ['a-b-c', true],
    ['-a', false],
    ['a-', false],
    ['a--b', false],
    ['a'.repeat(39), true],
    ['a'.repeat(40), false],
    ['https://github.com/octocat', false],
  ])('isGithubLogin(%p) = %p', (input, expected) => {
    expect(isGithubLogin(input)).toBe(expected);
  });

  it.each([
    ['jaoafa', true],
    ['@jaoafa', true],
    ['日本語', true],
    ['two words', false],
    ['', false],
    ['a\u0007', false],
  ])('isTwitterId(%p) = %p', (input, expected) => {
    expect(isTwitterId(input)).toBe(expected);
  });


  it('applies a change: absent keeps, null clears, a value sets', () => {
    const stored = { twitterId: 't', githubId: 'g', homeUrl: 'https://h.example/' };
    expect(applyLinksChange(stored, { githubId: null, homeUrl: 'https://new.example/' })).toEqual({ twitterId: 't', githubId: null, homeUrl: 'https://new.example/' });
  });

  it('keeps imported links of their form and counts the others', () => {
    expect(importedLinks({ twitterId: ' jaoafa ', githubId: 'https://github.com/x', homeUrl: '' })).toEqual({ links: { twitterId: 'jaoafa', githubId: null, homeUrl: null }, dropped: 1 });
  });
});
