import { hash, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random string from a CSPRNG (randomInt rejects biased draws). */
export function randomString(length: number, alphabet = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i += 1) {
    out += alphabet[randomInt(alphabet.length)];
  }
  return out;
}

export const newClubToken = (): string => randomString(32);
export const newUserKey = (): string => randomString(10, LETTERS);
export const newApiKey = (): string => `csk_${randomString(40)}`;

/**
 * Tokens and keys are long random strings, so a fast hash suffices to store them: there is no
 * low-entropy input to brute-force, unlike passwords (argon2id).
 */
export function hashSecret(secret: string): string {
  // The one-shot form: every authenticated request hashes its credential, and it is about half the cost.
  return hash('sha256', secret, 'hex');
}
