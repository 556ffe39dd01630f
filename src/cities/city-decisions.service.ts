import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { UnitOfWork } from '../database/unit-of-work';
import { lockCities } from './city-lock';
import { Actor, CityAuditService } from './city-audit.service';
import { applyChanges } from './city-changes';
import { City } from './city.entity';
import { CityRequest, RequestType } from './city-request.entity';
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
  ) {}

  /** Applies the pending request of that type; conflicts that arose meanwhile give 409 and leave it pending. */
  async approve(type: RequestType, cityId: number, actor: Actor): Promise<void> {
    await this.locked(async (manager) => {
      const request = await manager.findOneBy(CityRequest, { cityId, type, status: 'pending' });
      const city = request ? await manager.findOneBy(City, { id: cityId }) : null;
      if (!request || !city) {
        throw ApiError.notFound(msg('cities.noPendingOfType', { id: cityId, type }));
      }
      const before = citySnapshot(city);
      const now = new Date();
      if (type === 'create') {
        await this.rules.assertRegionFree(manager, city.corners, boundingBox(city.corners), { cityId });
        city.state = 'active';
        city.updatedAt = now;
      } else {
        await this.rules.assertChangesAllowed(manager, cityId, type, request.changes, request.id);
        applyChanges(city, type, request.changes, now);
      }
      await manager.save(City, city);
      this.decide(request, 'approved', actor, now, null);
      await manager.save(CityRequest, request);
      await this.audit.record(manager, {
        cityId,
        requestId: request.id,
        actor,
        action: `${type}_approved`,
        before: { city: before },
        after: { city: citySnapshot(city), request: requestSnapshot(request) },
      });
    });
  }

  /** Denies a pending request; a rejected create frees its name and region. */
  async reject(type: RequestType, requestId: number, reason: string | null, actor: Actor): Promise<void> {
    await this.locked(async (manager) => {
      const request = await manager.findOneBy(CityRequest, { id: requestId });
      if (!request || request.type !== type || request.status !== 'pending') {
        throw ApiError.notFound(msg('cities.noPendingRequest', { type, requestId }));
      }
      const now = new Date();
      const city = await manager.findOneByOrFail(City, { id: request.cityId });
      const before = { city: citySnapshot(city), request: requestSnapshot(request) };
      if (type === 'create') {
        release(city, 'rejected', now);
        await manager.save(City, city);
      }
      this.decide(request, 'rejected', actor, now, reason);
      await manager.save(CityRequest, request);
      await this.audit.record(manager, {
        cityId: city.id,
        requestId,
        actor,
        action: `${type}_rejected`,
        before,
        after: { city: citySnapshot(city), request: requestSnapshot(request) },
      });
    });
  }

  /** Deletes a registered city; its pending requests are rejected with it and its name and region freed. */
  async delete(cityId: number, actor: Actor): Promise<void> {
    await this.locked(async (manager) => {
      const city = await manager.findOneBy(City, { id: cityId, state: 'active' });
      if (!city) {
        throw ApiError.notFound(msg('cities.notFound', { id: cityId }));
      }
      const now = new Date();
      const before = citySnapshot(city);
      const pending = await manager.find(CityRequest, { where: { cityId, status: 'pending' }, order: { id: 'ASC' } });
      for (const request of pending) {
        const requestBefore = requestSnapshot(request);
        this.decide(request, 'rejected', actor, now, DELETED_REASON);
        await manager.save(CityRequest, request);
        await this.audit.record(manager, {
          cityId,
          requestId: request.id,
          actor,
          action: `${request.type}_rejected`,
          before: { request: requestBefore },
          after: { request: requestSnapshot(request) },
        });
      }
      release(city, 'deleted', now);
      await manager.save(City, city);
      await this.audit.record(manager, { cityId, actor, action: 'deleted', before: { city: before }, after: { city: citySnapshot(city) } });
    });
  }

  private decide(request: CityRequest, status: 'approved' | 'rejected', actor: Actor, now: Date, rejectReason: string | null): void {
    request.status = status;
    request.pendingKey = null;
    request.decidedAt = now;
    request.decidedBy = actor;
    request.rejectReason = rejectReason;
  }

  private async locked(work: (manager: EntityManager) => Promise<void>): Promise<void> {
    try {
      await this.unitOfWork.transaction(async (manager) => {
        await lockCities(this.unitOfWork, manager);
        await work(manager);
      });
    } catch (error) {
      throw conflictFromUniqueViolation(error);
    }
  }
}

/** Frees the name (keys NULL) and, through the state, the region. */
function release(city: City, state: 'rejected' | 'deleted', now: Date): void {
  city.state = state;
  city.nameKey = null;
  city.kanaKey = null;
  city.updatedAt = now;
}
