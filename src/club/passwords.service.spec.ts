import { QueueFullError } from '../common/limits/bounded-semaphore';
import { ShareExceededError } from '../common/limits/fair-queue';
import { loadConfig } from '../config/app-config';
import { PasswordsService } from './passwords.service';

describe(PasswordsService.name, () => {
  it('refuses hashes past PASSWORD_HASH_QUEUE_LIMIT waiting with QueueFullError, never a false "wrong password"', async () => {
    const passwords = new PasswordsService(loadConfig({ PASSWORD_HASH_QUEUE_LIMIT: '2' }));
    const hash = await passwords.hash('correct horse battery');
    const burst = Array.from({ length: 20 }, () => passwords.verify(hash, 'correct horse battery').then((ok) => ok, (error: unknown) => error));
    const outcomes = await Promise.all(burst);
    const refused = outcomes.filter((outcome) => outcome instanceof QueueFullError);
    const verified = outcomes.filter((outcome) => outcome === true);
    // At most (slots + 2) were admitted; the rest were refused at once; none came back `false`.
    expect(refused.length).toBeGreaterThan(0);
    expect(verified.length + refused.length).toBe(20);
    // Drained: accepted again.
    await expect(passwords.verify(hash, 'wrong password!')).resolves.toBe(false);
    await expect(passwords.verify(hash, 'correct horse battery')).resolves.toBe(true);
  }, 30_000);
});

describe(`${PasswordsService.name} shares`, () => {
  it('lets one account hold PASSWORD_HASH_PLACES_PER_ACCOUNT places; one more is ShareExceededError while another account gets in', async () => {
    const passwords = new PasswordsService(loadConfig({ RATE_LIMIT_ENABLED: 'true', PASSWORD_HASH_PLACES_PER_ACCOUNT: '2' }));
    const hash = await passwords.hash('correct horse battery');
    const flood = { account: 'Flooder', address: '192.0.2.1' };
    const outcomes = Promise.all(Array.from({ length: 10 }, () => passwords.verify(hash, 'correct horse battery', flood).then((ok) => ok, (error: unknown) => error)));
    const other = passwords.verify(hash, 'correct horse battery', { account: 'someone-else', address: '192.0.2.2' });
    await expect(other).resolves.toBe(true);
    const results = await outcomes;
    expect(results.filter((outcome) => outcome === true)).toHaveLength(2);
    expect(results.filter((outcome) => outcome instanceof ShareExceededError)).toHaveLength(8);
  }, 30_000);

  it('holds a reserved check\'s places until it is released, whatever it verifies in between', async () => {
    const passwords = new PasswordsService(loadConfig({ RATE_LIMIT_ENABLED: 'true', PASSWORD_HASH_PLACES_PER_ACCOUNT: '1' }));
    const hash = await passwords.hash('correct horse battery');
    const check = passwords.reserve({ account: 'Someone', address: '192.0.2.3' });
    expect(() => passwords.reserve({ account: 'someone', address: '192.0.2.4' })).toThrow(ShareExceededError);
    await expect(check.verify(hash, 'correct horse battery')).resolves.toBe(true);
    await expect(check.verifyAgainstNothing('anything at all')).resolves.toBe(false);
    await expect(passwords.verify(hash, 'correct horse battery', { account: 'someone', address: '192.0.2.4' })).rejects.toBeInstanceOf(ShareExceededError);
    check.release();
    await expect(passwords.verify(hash, 'correct horse battery', { account: 'someone', address: '192.0.2.4' })).resolves.toBe(true);
  }, 30_000);
});
