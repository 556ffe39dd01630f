import { redactUrl } from './redact';

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
});
