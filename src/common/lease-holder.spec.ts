import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { isDeadLocalHolder, newLeaseHolder } from './lease-holder';

describe('lease holders', () => {
  it('names this host and process', () => {
    expect(newLeaseHolder()).toMatch(new RegExp(`^${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${process.pid}:[0-9a-f-]{36}$`));
  });

  it('is dead only on this host, for another pid that no longer exists', () => {
    const exited = spawnSync(process.execPath, ['-e', '0']).pid;
    expect(isDeadLocalHolder(`${hostname()}:${exited}:x`)).toBe(true);
    expect(isDeadLocalHolder(`${hostname()}:${process.ppid}:x`)).toBe(false);
    expect(isDeadLocalHolder(newLeaseHolder())).toBe(false);
    // This pid, but not made by this process: an earlier process that had the same pid.
    expect(isDeadLocalHolder(`${hostname()}:${process.pid}:earlier`)).toBe(true);
    expect(isDeadLocalHolder(`another-host:${exited}:x`)).toBe(false);
    expect(isDeadLocalHolder(null)).toBe(false);
    expect(isDeadLocalHolder('garbage')).toBe(false);
  });
});
