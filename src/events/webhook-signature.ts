import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * `X-Community-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (docs/events-and-webhooks.md,
 * Verifying a delivery). The timestamp is that of the attempt, so a receiver can refuse replays of old bodies.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

/** What a receiver does (also used by the tests): true when the header matches body and secret. */
export function verifySignature(secret: string, body: string, header: string): boolean {
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !v1 || !/^\d+$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/** A new signing secret: 32 random bytes as 64 hex characters ("whsec_" prefix to recognise it). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}
