import { newWebhookSecret, signatureHeader, verifySignature } from './webhook-signature';

describe('webhook signature', () => {
  it('signs "<t>.<body>" with HMAC-SHA256 and verifies only with the same secret and body', () => {
    const secret = newWebhookSecret();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const body = JSON.stringify({ id: 1, type: 'city.changed' });
    const header = signatureHeader(secret, body, 1_800_000_000);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, body, header)).toBe(true);
    expect(verifySignature(newWebhookSecret(), body, header)).toBe(false);
    expect(verifySignature(secret, `${body} `, header)).toBe(false);
    expect(verifySignature(secret, body, header.replace('t=1800000000', 't=1800000001'))).toBe(false);
    expect(verifySignature(secret, body, 'garbage')).toBe(false);
  });

  it('matches a vector computed with openssl', () => {
    // printf '1700000000.{}' | openssl dgst -sha256 -hmac k
    expect(signatureHeader('k', '{}', 1_700_000_000)).toBe('t=1700000000,v1=c6ef4734033cee2367414a0939385eca0397754aa7a59716da7463a9298b5146');
  });
});
