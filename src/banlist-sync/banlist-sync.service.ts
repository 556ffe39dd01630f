import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { newLeaseHolder } from '../common/lease-holder';
import { Telemetry } from '../common/telemetry/telemetry';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { EventsService } from '../events/events.service';
import { BanlistClient, FetchContext } from './banlist-client';
import { BanlistStore } from './banlist-store.service';
import type { SyncTrigger } from './banlist-sync-run.entity';
import { SyncRunsRepository } from './sync-runs.repository';
import type { SyncSummary } from './banlist.view';
import { SyncLeaseService } from './sync-lease.service';
import { TimeoutBreaker } from './timeout-breaker';
import { runPool } from './worker-pool';

export const BANLIST_SYNC_LEASE = 'banlist-sync';
/** Long enough to outlive a 60 s Retry-After wait between two renewals. */
const LEASE_TTL_MS = 5 * 60_000;
const LEASE_RENEW_MS = 60_000;

/**
 * One sync run: refresh every known player from the upstream, one transaction per player,
 * under a database lease so that only one run happens at a time across instances.
 */
@Injectable()
export class BanlistSyncService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('BanlistSync');
  private readonly running = new Set<{ abort: AbortController; done: Promise<unknown> }>();

  constructor(
    private readonly config: AppConfig,
    private readonly client: BanlistClient,
    private readonly store: BanlistStore,
    private readonly leases: SyncLeaseService,
    private readonly unitOfWork: UnitOfWork,
    private readonly runs: SyncRunsRepository,
    private readonly events: EventsService,
    private readonly telemetry: Telemetry,
  ) {}

  /** Runs one sync now. 409 while another run holds the lease; 503 when no upstream is configured. */
  async run(trigger: SyncTrigger): Promise<SyncSummary> {
    if (!this.client.configured) {
      throw ApiError.unavailable('banlist.syncOff');
    }
    const holder = newLeaseHolder();
    if (!(await this.leases.acquire(BANLIST_SYNC_LEASE, holder, LEASE_TTL_MS))) {
      this.telemetry.banlistRun('skipped');
      throw ApiError.conflict('banlist.syncRunning');
    }
    const abort = new AbortController();
    const done = this.runHoldingLease(trigger, holder, abort.signal);
    const entry = { abort, done };
    this.running.add(entry);
    try {
      const summary = await done;
      this.telemetry.banlistRun(summary.stoppedAfterTimeouts === undefined ? 'finished' : 'stopped');
      return summary;
    } catch (error) {
      this.telemetry.banlistRun('failed');
      throw error;
    } finally {
      this.running.delete(entry);
    }
  }

  /** What the scheduled job calls: a busy lease means another instance is on it, which is fine. */
  async runScheduled(): Promise<void> {
    try {
      await this.run('schedule');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'conflict') {
        this.logger.log('Scheduled ban-list sync skipped: another run is in progress.');
        return;
      }
      this.logger.error({ msg: 'Scheduled ban-list sync failed', err: error });
    }
  }

  /** Stops a run in flight when the application closes, so it never writes to a closed database. */
  async beforeApplicationShutdown(): Promise<void> {
    const entries = [...this.running];
    entries.forEach((entry) => entry.abort.abort());
    await Promise.allSettled(entries.map((entry) => entry.done));
  }

  private async runHoldingLease(trigger: SyncTrigger, holder: string, signal: AbortSignal): Promise<SyncSummary> {
    const renewal = setInterval(() => {
      this.leases.renew(BANLIST_SYNC_LEASE, holder, LEASE_TTL_MS).then(
        (held) => !held && this.logger.warn('The ban-list sync lease was lost; another run may overlap this one.'),
        (error: unknown) => this.logger.warn({ msg: 'Could not renew the ban-list sync lease', err: error }),
      );
    }, LEASE_RENEW_MS);
    try {
      const summary = await this.refreshAll(signal);
      // The run's end and its event (docs/events-and-webhooks.md) commit together.
      await this.unitOfWork.transaction(async (tx) => {
        await this.runs.insertRun(tx, trigger, summary);
        await this.events.record(tx, 'banlist.sync.finished', { summary });
      });
      this.logger.log({ msg: 'Ban-list sync finished', trigger, ...summary });
      return summary;
    } finally {
      clearInterval(renewal);
      await this.leases.release(BANLIST_SYNC_LEASE, holder).catch((error: unknown) => {
        this.logger.warn({ msg: 'Could not release the ban-list sync lease; it expires on its own', err: error });
      });
    }
  }

  private async refreshAll(runSignal: AbortSignal): Promise<SyncSummary> {
    const startedAt = new Date();
    const uuids = await this.store.knownPlayerUuids();
    const breaker = new TimeoutBreaker(this.config.BANLIST_MAX_TIMEOUTS_IN_A_ROW);
    // Stopping the run (shutdown) or tripping the breaker ends every wait and request at once.
    const stop = new AbortController();
    const onRunAbort = (): void => stop.abort(runSignal.reason);
    runSignal.addEventListener('abort', onRunAbort, { once: true });
    const signal = stop.signal;
    const context = new FetchContext(signal);
    let updated = 0;
    let failed = 0;
    let removedBans = 0;
    try {
      await runPool(uuids, this.config.BANLIST_SYNC_CONCURRENCY, async (uuid) => {
        const outcome = signal.aborted ? { kind: 'failed' as const, reason: 'run cancelled' } : await this.client.fetchPlayer(uuid, context);
        if (!signal.aborted && breaker.record(outcome.kind === 'failed' && outcome.timedOut === true)) {
          this.logger.error({ msg: 'Ban-list sync stopped: the upstream timed out too many times in a row; the other players keep their data', timeoutsInARow: breaker.limit });
          stop.abort(new Error('circuit breaker'));
        }
        if (outcome.kind === 'failed') {
          failed += 1;
          this.logger.warn({ msg: 'Ban-list fetch failed; previous data kept', uuid, reason: outcome.reason });
          return;
        }
        try {
          // Await first, then add: `removedBans += await …` would read the total before the await and
          // overwrite what other workers added meanwhile.
          const removed = await this.store.replace(uuid, outcome.kind === 'found' ? outcome.player : null, new Date());
          removedBans += removed;
          updated += 1;
        } catch (error) {
          failed += 1;
          this.logger.error({ msg: 'Storing ban-list data failed; previous data kept', uuid, err: error });
        }
      });
    } finally {
      runSignal.removeEventListener('abort', onRunAbort);
    }
    return {
      players: uuids.length,
      updated,
      failed,
      removedBans,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      ...(breaker.tripped ? { stoppedAfterTimeouts: breaker.limit } : {}),
    };
  }
}
