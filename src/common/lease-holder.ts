import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a lease row (the ban-list sync's, a webhook's queue): `host:pid:random`. The random
 * part tells apart two holders in one process (tests run several app instances in one process).
 */
export function newLeaseHolder(): string {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  createdHere.add(holder);
  return holder;
}

/** The holders this process made: a holder with this process's pid that is not one of them is a
 * previous process that had the same pid (a container restarted keeps its host name and often
 * gets the same pid back), so it is dead. */
const createdHere = new Set<string>();

/**
 * True when `holder` names a process on this host that is no longer alive, so a restart can take
 * its leases at once instead of waiting for them to expire. Never true for a holder on another
 * host, made by this process, or whose process exists (a live replica on the same host): those
 * wait for the expiry as before.
 */
export function isDeadLocalHolder(holder: string | null | undefined, isAlive: (pid: number) => boolean = processExists): boolean {
  const match = /^(.*):(\d+):[^:]+$/.exec(holder ?? '');
  if (!match || match[1] !== hostname()) {
    return false;
  }
  const pid = Number(match[2]);
  if (pid === process.pid) {
    return !createdHere.has(holder!);
  }
  return pid > 0 && !isAlive(pid);
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
