import { parseSourceUrl, scrub, secretSpellings, SourceError } from './source-url';

describe('the source URL and its password', () => {
  const awkward = 'p/a@s#s:w?o%rd';

  it('reads a password with unencoded /, @, #, ?, : and % up to the last @', () => {
    expect(parseSourceUrl(`mysql://importer:${awkward}@db.example:3307/jaoMain`)).toEqual({
      host: 'db.example',
      port: 3307,
      user: 'importer',
      password: awkward,
      database: 'jaoMain',
      where: 'db.example:3307/jaoMain',
    });
  });

  it('decodes an encoded password, and a password given apart replaces the URL one', () => {
    expect(parseSourceUrl(`mysql://importer:${encodeURIComponent(awkward)}@db.example/jaoMain`).password).toBe(awkward);
    expect(parseSourceUrl('mysql://importer@db.example/jaoMain', 'from-file')).toMatchObject({ user: 'importer', password: 'from-file', port: 3306 });
  });

  it('refuses what names no host or database, and never puts the password in the message', () => {
    for (const url of [`mysql://root:${awkward}@/jaoMain`, `mysql://root:${awkward}@db.example`, 'http://db.example/jaoMain', `mysql://root:${awkward}`]) {
      let message = '';
      try {
        parseSourceUrl(url);
      } catch (error) {
        expect(error).toBeInstanceOf(SourceError);
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('w?o');
    }
  });

  it('scrubs every spelling of the password from a message', () => {
    const secrets = secretSpellings(`mysql://root:${encodeURIComponent(awkward)}@h/d`, 'other secret');
    const text = `a ${awkward} b ${encodeURIComponent(awkward)} c other secret d ${encodeURIComponent('other secret')}`;
    expect(scrub(text, secrets)).toBe('a *** b *** c *** d ***');
  });
});
