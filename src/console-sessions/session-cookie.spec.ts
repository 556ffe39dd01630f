import { COOKIE_NAME, csrfMatches, csrfTokenOf, isSessionSecret, newSessionSecret, originAllowed, SECURE_COOKIE_NAME, sessionCookieHeader, sessionCookieOf } from './session-cookie';

describe('console session cookie', () => {
  it('makes long random secrets in one format', () => {
    const a = newSessionSecret();
    expect(isSessionSecret(a)).toBe(true);
    expect(a).not.toBe(newSessionSecret());
    expect(isSessionSecret('ccs_short')).toBe(false);
    expect(isSessionSecret(undefined)).toBe(false);
  });

  it('derives a CSRF token that is not the secret and compares it exactly', () => {
    const secret = newSessionSecret();
    const token = csrfTokenOf(secret);
    expect(token).not.toContain(secret);
    expect(csrfMatches(secret, token)).toBe(true);
    expect(csrfMatches(secret, token.slice(0, -1))).toBe(false);
    expect(csrfMatches(secret, `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(csrfMatches(secret, undefined)).toBe(false);
    expect(csrfMatches(newSessionSecret(), token)).toBe(false);
  });

  it('reads either cookie name, the __Host- one first', () => {
    expect(sessionCookieOf(`a=1; ${COOKIE_NAME}=plain`)).toBe('plain');
    expect(sessionCookieOf(`${COOKIE_NAME}=plain; ${SECURE_COOKIE_NAME}=secure`)).toBe('secure');
    expect(sessionCookieOf('other=1')).toBeUndefined();
    expect(sessionCookieOf(undefined)).toBeUndefined();
  });

  it('sets HttpOnly, SameSite=Strict and Path=/, and Secure with the __Host- name over HTTPS', () => {
    expect(sessionCookieHeader('v', false, 60)).toBe(`${COOKIE_NAME}=v; Path=/; Max-Age=60; HttpOnly; SameSite=Strict`);
    expect(sessionCookieHeader('v', true, 0)).toBe(`${SECURE_COOKIE_NAME}=v; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure`);
  });

  it("allows no Origin, or this server's own host only", () => {
    expect(originAllowed(undefined, 'a:1')).toBe(true);
    expect(originAllowed('http://a:1', 'a:1')).toBe(true);
    expect(originAllowed('https://Example.org', 'example.org')).toBe(true);
    expect(originAllowed('https://example.org:443', 'example.org')).toBe(true);
    expect(originAllowed('http://a:2', 'a:1')).toBe(false);
    expect(originAllowed('http://evil', 'a:1')).toBe(false);
    expect(originAllowed('http://a.evil', 'a')).toBe(false);
    expect(originAllowed('null', 'a:1')).toBe(false);
    expect(originAllowed('http://a:1', undefined)).toBe(false);
  });
});
