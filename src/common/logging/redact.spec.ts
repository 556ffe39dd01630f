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

  it('leaves URLs without a query untouched', () => {
    expect(redactUrl('/cities/12')).toBe('/cities/12');
  });
});
