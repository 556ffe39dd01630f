import { Injectable } from '@nestjs/common';
import type { ClubSession } from '../club/club-session';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { CitiesRepository } from './cities.repository';
import type { AuditAction } from './city-audit.entity';
import { Actor, CityAuditService } from './city-audit.service';
import { applyChanges } from './city-changes';
import { CITIES_LOCK } from './city-lock';
import type { RequestType } from './city-request.entity';
import { CityEvents } from './city-events';
import { CityRequestsRepository } from './city-requests.repository';
import type { CityRecord, CityRequestRecord } from './city.records';
import { CityRulesService, conflictFromUniqueViolation } from './city-rules.service';
import { citySnapshot, requestSnapshot } from './city.view';

const DELETED_REASON = 'The city was deleted.';
/** The reject reason of a request its requester withdrew. */
const WITHDRAWN_REASON = 'withdrawn';

/**
 * Decisions on requests (approve, reject, withdraw) and city deletion. Each is one locked
 * transaction; every state change of a request passes through `approveRequest` or `rejectRequest`,
 * of a city through those or `delete`.
 */
@Injectable()
export class CityDecisionsService {
  constructor(
    private readonly rules: CityRulesService,
    private readonly audit: CityAuditService,
    private readonly unitOfWork: UnitOfWork,
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly events: CityEvents,
  ) {}

  /** Applies the pending request of that type; conflicts that arose meanwhile give 409 and leave it pending. */
  async approve(type: RequestType, cityId: number, actor: Actor): Promise<void> {
    await this.locked(async (tx) => {
      const request = await this.requests.getPending(tx, cityId, type);
      const city = request ? await this.cities.getRecord(tx, cityId) : undefined;
      if (!request || !city) {
        throw ApiError.notFound(msg('cities.noPendingOfType', { id: cityId, type }));
      }
      assertNotOwnRequest(request, actor);
      await this.rules.assertApprovable(tx, type, city, request.changes, request.id);
      await this.approveRequest(tx, request, city, actor);
    });
  }

  /** Denies a pending request; a rejected create frees its name and region. */
  async reject(type: RequestType, requestId: number, reason: string | null, actor: Actor): Promise<void> {
    await this.locked(async (tx) => {
      const request = await this.requests.getById(tx, requestId);
      if (!request || request.type !== type || request.status !== 'pending') {
        throw ApiError.notFound(msg('cities.noPendingRequest', { type, requestId }));
      }
      assertNotOwnRequest(request, actor);
      await this.rejectRequest(tx, request, actor, reason, `${type}_rejected`);
    });
  }

  /** The requester takes back their own pending request; it is rejected as "withdrawn". */
  async withdraw(requestId: number, session: ClubSession): Promise<void> {
    await this.locked(async (tx) => {
      const request = await this.requests.getById(tx, requestId);
      if (!request) {
        throw ApiError.notFound(msg('cities.noRequest', { requestId }));
      }
      if (request.requesterUuid !== session.playerUuid) {
        throw ApiError.forbidden('cities.withdraw.notYours');
      }
      if (request.status !== 'pending') {
        throw ApiError.notFound(msg('cities.withdraw.notPending', { requestId }));
      }
      await this.rejectRequest(tx, request, `club:${session.playerUuid}`, WITHDRAWN_REASON, `${request.type}_withdrawn`);
    });
  }

  /** Deletes a registered city; its pending requests are rejected with it and its name and region freed. */
  async delete(cityId: number, actor: Actor): Promise<void> {
    await this.locked(async (tx) => {
      const city = await this.cities.getRegisteredRecord(tx, cityId);
      if (!city) {
        throw ApiError.notFound(msg('cities.notFound', { id: cityId }));
      }
      const before = citySnapshot(city);
      const now = new Date();
      const asItWas = (await this.events.view(tx, cityId))!;
      const rejected: number[] = [];
      for (const request of await this.requests.getPendingOfCity(tx, cityId)) {
        rejected.push(request.id);
        const decided = await this.decide(tx, request, 'rejected', actor, now, DELETED_REASON);
        await this.audit.record(tx, {
          cityId,
          requestId: request.id,
          actor,
          action: `${request.type}_rejected`,
          before: { request: requestSnapshot(request) },
          after: { request: requestSnapshot(decided) },
        });
      }
      await this.release(tx, city, 'deleted', now);
      await this.audit.record(tx, { cityId, actor, action: 'deleted', before: { city: before }, after: { city: citySnapshot(city) } });
      // Its pending requests are rejected with it, then the city goes (docs/events-and-webhooks.md, Event types).
      for (const requestId of rejected) {
        await this.events.rejected(tx, requestId, asItWas);
      }
      await this.events.deleted(tx, asItWas);
    });
  }

  /** The one approval transition: the city changes (or becomes visible), the request is decided. */
  private async approveRequest(tx: Transaction, request: CityRequestRecord, city: CityRecord, actor: Actor): Promise<void> {
    const before = citySnapshot(city);
    const now = new Date();
    if (request.type === 'create') {
      Object.assign(city, { state: 'active', updatedAt: now });
    } else {
      applyChanges(city, request.type, request.changes, now);
    }
    await this.cities.save(tx, city);
    const decided = await this.decide(tx, request, 'approved', actor, now, null);
    await this.audit.record(tx, {
      cityId: city.id,
      requestId: request.id,
      actor,
      action: `${request.type}_approved`,
      before: { city: before },
      after: { city: citySnapshot(city), request: requestSnapshot(decided) },
    });
    await this.events.approved(tx, request.id, city.id);
  }

  /** The one rejection transition (a decision or a withdrawal): a rejected create frees its name and region. */
  private async rejectRequest(tx: Transaction, request: CityRequestRecord, actor: Actor, reason: string | null, action: AuditAction): Promise<void> {
    const now = new Date();
    const city = (await this.cities.getRecord(tx, request.cityId))!;
    const before = { city: citySnapshot(city), request: requestSnapshot(request) };
    if (request.type === 'create') {
      await this.release(tx, city, 'rejected', now);
    }
    const decided = await this.decide(tx, request, 'rejected', actor, now, reason);
    await this.audit.record(tx, { cityId: city.id, requestId: request.id, actor, action, before, after: { city: citySnapshot(city), request: requestSnapshot(decided) } });
    // Rejected, withdrawn: one event type (docs/events-and-webhooks.md, Event types); a rejected create never became a city, so no city.
    await this.events.rejected(tx, request.id, request.type === 'create' ? null : ((await this.events.view(tx, city.id)) ?? null));
  }

  /** Writes the decision; returns the request as it now stands. */
  private async decide(tx: Transaction, request: CityRequestRecord, status: 'approved' | 'rejected', actor: Actor, now: Date, rejectReason: string | null): Promise<CityRequestRecord> {
    const decision = { status, decidedAt: now, decidedBy: actor, rejectReason };
    await this.requests.decide(tx, request.id, decision);
    return { ...request, ...decision, pendingKey: null };
  }

  /** Frees the name, kana and region name (keys NULL) and, through the state, the region. */
  private async release(tx: Transaction, city: CityRecord, state: 'rejected' | 'deleted', now: Date): Promise<void> {
    Object.assign(city, { state, nameKey: null, kanaKey: null, regionKey: null, updatedAt: now });
    await this.cities.save(tx, city);
  }

  private async locked(work: (tx: Transaction) => Promise<void>): Promise<void> {
    try {
      await this.unitOfWork.transaction(work, { lock: CITIES_LOCK });
    } catch (error) {
      throw conflictFromUniqueViolation(error);
    }
  }
}

/** A club admin cannot decide a request they filed; operator keys are not affected. */
function assertNotOwnRequest(request: CityRequestRecord, actor: Actor): void {
  if (actor === `club:${request.requesterUuid}`) {
    throw ApiError.forbidden('cities.ownRequest');
  }
}
