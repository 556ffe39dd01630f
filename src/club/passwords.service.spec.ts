import { QueueFullError } from '../common/limits/bounded-semaphore';
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
