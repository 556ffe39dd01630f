import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS, redactUrl, SECRET_HEADER_NAMES, SECRET_PARAMETER_NAMES } from './redact';

describe(redactUrl.name, () => {
  it('redacts secret query values and keeps the rest', () => {
    expect(redactUrl('/club/token?username=Notch&password=hunter2&recaptcha=abc')).toBe(
      '/club/token?username=Notch&password=[redacted]&recaptcha=[redacted]',
    );
    expect(redactUrl('/club/@me?usertoken=AAAA&x=1')).toBe('/club/@me?usertoken=[redacted]&x=1');
    expect(redactUrl('/cities/create?apikey=k&USERKEY=u')).toBe('/cities/create?apikey=[redacted]&USERKEY=[redacted]');
  });

  it('catches percent-encoded, plus-encoded and bracketed names', () => {
    expect(redactUrl('/club/token?username=a&pass%77ord=hunter2&%50ASSWORD=x&%70%61%73%73%77%6f%72%64=y')).toBe(
      '/club/token?username=a&pass%77ord=[redacted]&%50ASSWORD=[redacted]&%70%61%73%73%77%6f%72%64=[redacted]',
    );
    expect(redactUrl('/x?password[]=a&+usertoken=b&api%6Bey&bad%zz=1#frag')).toBe('/x?password[]=[redacted]&+usertoken=[redacted]&api%6Bey=[redacted]&bad%zz=1#frag');
  });

  it('redacts everything after a ; in a path segment, whatever its name, written or percent-encoded', () => {
    expect(redactUrl('/club/token;password=hunter2')).toBe('/club/token;[redacted]');
    expect(redactUrl('/cities/requests;apikey=csk_abc;x=1?limit=5')).toBe('/cities/requests;[redacted]?limit=5');
    expect(redactUrl('/club;usertoken=AAAA/token;csk_bare')).toBe('/club;[redacted]/token;[redacted]');
    expect(redactUrl('/club/token%3Bpassword=hunter2')).toBe('/club/token;[redacted]');
    expect(redactUrl('/club/token%3bPASSWORD=hunter2?username=a&password=b')).toBe('/club/token;[redacted]?username=a&password=[redacted]');
    expect(redactUrl('/club/token;password=hunter2#frag')).toBe('/club/token;[redacted]#frag');
  });

  it('splits query pairs at ; as well as &', () => {
    expect(redactUrl('/club/token?username=a;password=hunter2&x=1;apikey=k')).toBe('/club/token?username=a;password=[redacted]&x=1;apikey=[redacted]');
  });

  it('redacts a query even behind a #', () => {
    expect(redactUrl('/a#x?password=1')).toBe('/a#x?password=[redacted]');
  });

  it('leaves URLs without a query untouched', () => {
    expect(redactUrl('/cities/12')).toBe('/cities/12');
    expect(redactUrl('/')).toBe('/');
  });

  it.each([
    ['every secret name the API reads', '/x?password=s&newPassword=s&usertoken=s&apikey=s&recaptcha=s&user_recaptcha=s&userkey=s&verificationCode=s&token=s&key=s&secret=s&limit=5',
      '/x?password=[redacted]&newPassword=[redacted]&usertoken=[redacted]&apikey=[redacted]&recaptcha=[redacted]&user_recaptcha=[redacted]&userkey=[redacted]&verificationCode=[redacted]&token=[redacted]&key=[redacted]&secret=[redacted]&limit=5'],
    ['any case', '/x?PASSWORD=s&ApiKey=s&NEWPASSWORD=s&User_Recaptcha=s', '/x?PASSWORD=[redacted]&ApiKey=[redacted]&NEWPASSWORD=[redacted]&User_Recaptcha=[redacted]'],
    ['a repeated name, every time', '/x?token=a&token=b&limit=1&token=c', '/x?token=[redacted]&token=[redacted]&limit=1&token=[redacted]'],
    ['percent-encoded separators', '/x?limit=5%3Bpassword=s%26apikey=t%3bkey=u', '/x?limit=5%3Bpassword=[redacted]%26apikey=[redacted]%3bkey=[redacted]'],
    ['a percent-encoded =', '/x?pass%77ord%3Dsecret&a=1', '/x?pass%77ord=[redacted]&a=1'],
    ['header names used as parameters', '/x?X-API-Key=s&authorization=s&x-recaptcha-token=s', '/x?X-API-Key=[redacted]&authorization=[redacted]&x-recaptcha-token=[redacted]'],
    ['a query written %3F in the path', '/club/token%3Fpassword=s&username=a', '/club/token%3Fpassword=[redacted]&username=a'],
  ])('redacts by name: %s', (_label, url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('keeps names that only contain a secret name', () => {
    expect(redactUrl('/x?passwordless=1&keys=2&tokenized=3')).toBe('/x?passwordless=1&keys=2&tokenized=3');
  });
});

describe('REDACTED_PATHS', () => {
  function logged(object: Record<string, unknown>): string {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream).info(object, 'probe');
    return lines.join('');
  }

  it('blanks every secret header wherever request headers are logged', () => {
    const headers = Object.fromEntries(SECRET_HEADER_NAMES.map((name) => [name, `Sekret-${name}`]));
    for (const holder of ['req', 'request', 'res']) {
      expect(logged({ [holder]: { headers: { ...headers, accept: 'text/html' } } })).not.toContain('Sekret');
    }
    const line = logged({ headers: { ...headers, accept: 'text/html' } });
    expect(line).not.toContain('Sekret');
    expect(line).toContain('text/html');
  });

  it('blanks every secret parameter at the top of a line and in a logged body or query', () => {
    const params = { password: 'Sekret1', newPassword: 'Sekret2', usertoken: 'Sekret3', apikey: 'Sekret4', recaptcha: 'Sekret5', user_recaptcha: 'Sekret6', userkey: 'Sekret7', verificationCode: 'Sekret8' };
    expect(logged(params)).not.toContain('Sekret');
    expect(logged({ body: params, query: params, req: { body: params, query: params } })).not.toContain('Sekret');
    expect(SECRET_PARAMETER_NAMES.every((name) => Object.keys(params).map((key) => key.toLowerCase()).includes(name) || ['token', 'key', 'secret'].includes(name))).toBe(true);
  });
});
