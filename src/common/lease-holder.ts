import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a lease row (the ban-list sync's, a webhook's queue): `host:pid:random`. The random
 * part tells apart two holders in one process (tests run several app instances in one process).
 */
export function newLeaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`;
}

/**
 * True when `holder` names a process on this host that is no longer alive, so a restart can take
 * its leases at once instead of waiting for them to expire. Never true for a holder on another
 * host, in this process, or whose process exists (a live replica on the same host): those wait
 * for the expiry as before.
 */
export function isDeadLocalHolder(holder: string | null | undefined, isAlive: (pid: number) => boolean = processExists): boolean {
  const match = /^(.*):(\d+):[^:]+$/.exec(holder ?? '');
  if (!match || match[1] !== hostname()) {
    return false;
  }
  const pid = Number(match[2]);
  return pid !== process.pid && pid > 0 && !isAlive(pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
