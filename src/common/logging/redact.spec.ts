import { redactUrl } from './redact';

describe(redactUrl.name, () => {
  it('redacts secret query values and keeps the rest', () => {
    expect(redactUrl('/club/token?username=Notch&password=hunter2&recaptcha=abc')).toBe(
      '/club/token?username=Notch&password=[redacted]&recaptcha=[redacted]',
    );
    expect(redactUrl('/club/@me?usertoken=AAAA&x=1')).toBe('/club/@me?usertoken=[redacted]&x=1');
    expect(redactUrl('/cities/create?apikey=k&USERKEY=u')).toBe('/cities/create?apikey=[redacted]&USERKEY=[redacted]');
  });

  it('leaves URLs without a query untouched', () => {
    expect(redactUrl('/cities/12')).toBe('/cities/12');
  });
});
