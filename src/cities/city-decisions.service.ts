import { Injectable } from '@nestjs/common';
import { msg } from '../common/errors/messages';
import { ApiError } from '../common/errors/api-error';
import { Transaction, UnitOfWork } from '../database/unit-of-work';
import { CitiesRepository, CityRecord } from './cities.repository';
import { Actor, CityAuditService } from './city-audit.service';
import { applyChanges } from './city-changes';
import { CITIES_LOCK } from './city-lock';
import type { RequestType } from './city-request.entity';
import { CityRequestRecord, CityRequestsRepository, RequestDecision } from './city-requests.repository';
import { CityRulesService, conflictFromUniqueViolation } from './city-rules.service';
import { citySnapshot, requestSnapshot } from './city.view';
import { boundingBox } from './geometry';

const DELETED_REASON = 'The city was deleted.';

/** Operator decisions: approve and reject requests, delete cities. Each is one locked transaction. */
@Injectable()
export class CityDecisionsService {
  constructor(
    private readonly rules: CityRulesService,
    private readonly audit: CityAuditService,
    private readonly unitOfWork: UnitOfWork,
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
  ) {}

  /** Applies the pending request of that type; conflicts that arose meanwhile give 409 and leave it pending. */
  async approve(type: RequestType, cityId: number, actor: Actor): Promise<void> {
    await this.locked(async (tx) => {
      const request = await this.requests.getPending(tx, cityId, type);
      const city = request ? await this.cities.getRecord(tx, cityId) : undefined;
      if (!request || !city) {
        throw ApiError.notFound(msg('cities.noPendingOfType', { id: cityId, type }));
      }
      const before = citySnapshot(city);
      const now = new Date();
      if (type === 'create') {
        await this.rules.assertRegionFree(tx, city.corners, boundingBox(city.corners), { cityId });
        city.state = 'active';
        city.updatedAt = now;
      } else {
        await this.rules.assertChangesAllowed(tx, cityId, type, request.changes, request.id);
        applyChanges(city, type, request.changes, now);
      }
      await this.cities.save(tx, city);
      const decided = await this.decide(tx, request, { status: 'approved', decidedAt: now, decidedBy: actor, rejectReason: null });
      await this.audit.record(tx, {
        cityId,
        requestId: request.id,
        actor,
        action: `${type}_approved`,
        before: { city: before },
        after: { city: citySnapshot(city), request: requestSnapshot(decided) },
      });
    });
  }

  /** Denies a pending request; a rejected create frees its name and region. */
  async reject(type: RequestType, requestId: number, reason: string | null, actor: Actor): Promise<void> {
    await this.locked(async (tx) => {
      const request = await this.requests.getById(tx, requestId);
      if (!request || request.type !== type || request.status !== 'pending') {
        throw ApiError.notFound(msg('cities.noPendingRequest', { type, requestId }));
      }
      const now = new Date();
      const city = (await this.cities.getRecord(tx, request.cityId))!;
      const before = { city: citySnapshot(city), request: requestSnapshot(request) };
      if (type === 'create') {
        await this.release(tx, city, 'rejected', now);
      }
      const decided = await this.decide(tx, request, { status: 'rejected', decidedAt: now, decidedBy: actor, rejectReason: reason });
      await this.audit.record(tx, {
        cityId: city.id,
        requestId,
        actor,
        action: `${type}_rejected`,
        before,
        after: { city: citySnapshot(city), request: requestSnapshot(decided) },
      });
    });
  }

  /** Deletes a registered city; its pending requests are rejected with it and its name and region freed. */
  async delete(cityId: number, actor: Actor): Promise<void> {
    await this.locked(async (tx) => {
      const city = await this.cities.getRegisteredRecord(tx, cityId);
      if (!city) {
        throw ApiError.notFound(msg('cities.notFound', { id: cityId }));
      }
      const now = new Date();
      const before = citySnapshot(city);
      for (const request of await this.requests.getPendingOfCity(tx, cityId)) {
        const decided = await this.decide(tx, request, { status: 'rejected', decidedAt: now, decidedBy: actor, rejectReason: DELETED_REASON });
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
    });
  }

  /** Writes the decision; returns the request as it now stands. */
  private async decide(tx: Transaction, request: CityRequestRecord, decision: RequestDecision): Promise<CityRequestRecord> {
    await this.requests.decide(tx, request.id, decision);
    return { ...request, ...decision, pendingKey: null };
  }

  /** Frees the name (keys NULL) and, through the state, the region. */
  private async release(tx: Transaction, city: CityRecord, state: 'rejected' | 'deleted', now: Date): Promise<void> {
    Object.assign(city, { state, nameKey: null, kanaKey: null, updatedAt: now });
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
