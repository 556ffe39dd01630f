import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CaptchaService } from '../captcha/captcha.service';
import type { ClubSession } from '../club/club-session';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { UnitOfWork } from '../database/unit-of-work';
import { lockCities } from './city-lock';
import { CityAuditService } from './city-audit.service';
import { applyChanges } from './city-changes';
import { checkEditInput, editChanges } from './city-input';
import { City } from './city.entity';
import { CityRequest, pendingKeyOf, RequestedChanges } from './city-request.entity';
import { CityRulesService, conflictFromUniqueViolation } from './city-rules.service';
import { citySnapshot, CityView, requestSnapshot } from './city.view';
import type { EditCityDto } from './dto/city.dto';
import { CitiesQueryService } from './cities-query.service';
import { boundingBox } from './geometry';

export type EditResult = { requestId: number; requestStatus: 'pending' } | { requestStatus: 'applied'; data: CityView };

/**
 * Update City: the city's administrator files a request (`region` for corners, else `update`);
 * a club admin editing someone else's city applies the change at once.
 */
@Injectable()
export class CityEditService {
  constructor(
    private readonly rules: CityRulesService,
    private readonly audit: CityAuditService,
    private readonly queries: CitiesQueryService,
    private readonly captcha: CaptchaService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async edit(session: ClubSession, input: EditCityDto, ip: string): Promise<EditResult> {
    const draft = checkEditInput(input, this.rules.limits);
    const cityId = Number(input.id);
    const city = await this.queries.findRegistered(cityId);
    const isAdministrator = city.ownerUuid === session.playerUuid;
    if (!isAdministrator && session.clubgroup !== 'admin') {
      throw ApiError.forbidden('cities.editForbidden');
    }
    await this.captcha.verify(input.recaptcha, ip);
    const changes = editChanges(draft);
    const actor = `club:${session.playerUuid}`;
    try {
      if (isAdministrator) {
        const requestId = await this.locked((manager) => this.fileRequest(manager, cityId, draft.type, changes, session.playerUuid, actor));
        return { requestId, requestStatus: 'pending' };
      }
      await this.locked((manager) => this.applyNow(manager, cityId, draft.type, changes, session.playerUuid, actor));
    } catch (error) {
      throw conflictFromUniqueViolation(error);
    }
    return { requestStatus: 'applied', data: await this.queries.findRegisteredView(cityId) };
  }

  private async fileRequest(manager: EntityManager, cityId: number, type: 'region' | 'update', changes: RequestedChanges, requesterUuid: string, actor: string): Promise<number> {
    await this.reloadRegistered(manager, cityId);
    if (await manager.existsBy(CityRequest, { cityId, type, status: 'pending' })) {
      throw ApiError.conflict(msg('cities.pendingExists', { id: cityId, type }));
    }
    await this.rules.assertChangesAllowed(manager, cityId, type, changes);
    const request = this.newRequest(cityId, type, changes, requesterUuid, 'pending', null);
    request.id = (await manager.insert(CityRequest, request)).identifiers[0]?.id as number;
    await this.audit.record(manager, { cityId, requestId: request.id, actor, action: `${type}_requested`, after: { request: requestSnapshot(request) } });
    return request.id;
  }

  private async applyNow(manager: EntityManager, cityId: number, type: 'region' | 'update', changes: RequestedChanges, requesterUuid: string, actor: string): Promise<void> {
    const city = await this.reloadRegistered(manager, cityId);
    await this.rules.assertChangesAllowed(manager, cityId, type, changes);
    const before = citySnapshot(city);
    const now = new Date();
    applyChanges(city, type, changes, now);
    await manager.save(City, city);
    // The forced change is kept as an approved request too, so the request list shows every change.
    const request = this.newRequest(cityId, type, changes, requesterUuid, 'approved', actor);
    request.id = (await manager.insert(CityRequest, request)).identifiers[0]?.id as number;
    await this.audit.record(manager, {
      cityId,
      requestId: request.id,
      actor,
      action: `${type}_forced`,
      before: { city: before },
      after: { city: citySnapshot(city), request: requestSnapshot(request) },
    });
  }

  private newRequest(cityId: number, type: 'region' | 'update', changes: RequestedChanges, requesterUuid: string, status: 'pending' | 'approved', decidedBy: string | null): CityRequest {
    const now = new Date();
    const box = type === 'region' && changes.corners ? boundingBox(changes.corners) : { minX: null, maxX: null, minZ: null, maxZ: null };
    return Object.assign(new CityRequest(), {
      cityId,
      type,
      status,
      pendingKey: status === 'pending' ? pendingKeyOf(cityId, type) : null,
      changes,
      requesterUuid,
      remarks: changes.remarks ?? null,
      ...box,
      createdAt: now,
      decidedAt: status === 'approved' ? now : null,
      decidedBy,
      rejectReason: null,
    });
  }

  /** The city again, inside the lock: it may have been deleted since the first read. */
  private async reloadRegistered(manager: EntityManager, cityId: number): Promise<City> {
    const city = await manager.findOneBy(City, { id: cityId, state: 'active' });
    if (!city) {
      throw ApiError.notFound(msg('cities.notFound', { id: cityId }));
    }
    return city;
  }

  private locked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.unitOfWork.transaction(async (manager) => {
      await lockCities(this.unitOfWork, manager);
      return work(manager);
    });
  }
}
