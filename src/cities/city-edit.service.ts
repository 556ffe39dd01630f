import { Injectable } from '@nestjs/common';
import { CaptchaService } from '../captcha/captcha.service';
import type { ClubSession } from '../club/club-session';
import { msg } from '../common/errors/messages';
import { ApiError } from '../common/errors/api-error';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { CitiesRepository } from './cities.repository';
import { CityAuditService } from './city-audit.service';
import { applyChanges } from './city-changes';
import { checkEditFields, editChanges, editDraft, withoutUnchanged } from './city-input';
import { CITIES_LOCK } from './city-lock';
import { pendingKeyOf, RequestedChanges } from './city-request.entity';
import { CityRequestsRepository } from './city-requests.repository';
import type { CityRecord, CityRequestRecord, NewCityRequest } from './city.records';
import { CityEvents } from './city-events';
import { CityRulesService, conflictFromUniqueViolation } from './city-rules.service';
import { citySnapshot, CityView, requestSnapshot } from './city.view';
import type { EditCityDto } from './dto/city.dto';
import { boundingBox } from './geometry';

/** `request_id` is the earlier service's name of `requestId`, read by the earlier club site. */
export type EditResult = { requestId: number; request_id: number; requestStatus: 'pending' } | { requestStatus: 'applied'; data: CityView };

type EditType = 'region' | 'update';

/**
 * Update City: the city's administrator files a request (`region` for corners, else `update`);
 * a club admin editing someone else's city applies the change at once.
 */
@Injectable()
export class CityEditService {
  constructor(
    private readonly rules: CityRulesService,
    private readonly audit: CityAuditService,
    private readonly captcha: CaptchaService,
    private readonly unitOfWork: UnitOfWork,
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly events: CityEvents,
  ) {}

  /**
   * Order: each field's format (400), the city (404), fields equal to its current values dropped
   * and what is left combined (400), who may edit (403), CAPTCHA, then the rules and writes.
   */
  async edit(session: ClubSession, input: EditCityDto, ip: string): Promise<EditResult> {
    const fields = checkEditFields(input, this.rules.limits);
    const cityId = Number(input.id);
    const current = await this.registeredView(cityId);
    const draft = editDraft(withoutUnchanged(fields, current));
    const isAdministrator = current.owner.uuid === session.playerUuid;
    if (!isAdministrator && session.clubgroup !== 'admin') {
      throw ApiError.forbidden('cities.editForbidden');
    }
    await this.captcha.verify(input.recaptcha, ip);
    const changes = editChanges(draft);
    const actor = `club:${session.playerUuid}`;
    try {
      if (isAdministrator) {
        const requestId = await this.unitOfWork.transaction((tx) => this.fileRequest(tx, cityId, draft.type, changes, session.playerUuid, actor), { lock: CITIES_LOCK });
        return { requestId, request_id: requestId, requestStatus: 'pending' };
      }
      await this.unitOfWork.transaction((tx) => this.applyNow(tx, cityId, draft.type, changes, session.playerUuid, actor), { lock: CITIES_LOCK });
    } catch (error) {
      throw conflictFromUniqueViolation(error);
    }
    return { requestStatus: 'applied', data: await this.registeredView(cityId) };
  }

  private async fileRequest(tx: Transaction, cityId: number, type: EditType, changes: RequestedChanges, requesterUuid: string, actor: string): Promise<number> {
    const city = await this.reloadRegistered(tx, cityId);
    if (await this.requests.getPending(tx, cityId, type)) {
      throw ApiError.conflict(msg('cities.pendingExists', { id: cityId, type }));
    }
    await this.rules.assertApprovable(tx, type, city, changes);
    const request = await this.insertRequest(tx, newRequest(cityId, type, changes, requesterUuid, 'pending', null));
    await this.audit.record(tx, { cityId, requestId: request.id, actor, action: `${type}_requested`, after: { request: requestSnapshot(request) } });
    // The event shows the city as requested: the stored one with the changes applied (not saved).
    const requested = await this.reloadRegistered(tx, cityId);
    applyChanges(requested, type, changes, new Date());
    await this.events.created(tx, request.id, cityId, requested);
    return request.id;
  }

  private async applyNow(tx: Transaction, cityId: number, type: EditType, changes: RequestedChanges, requesterUuid: string, actor: string): Promise<void> {
    const city = await this.reloadRegistered(tx, cityId);
    await this.rules.assertApprovable(tx, type, city, changes);
    const before = citySnapshot(city);
    applyChanges(city, type, changes, new Date());
    await this.cities.save(tx, city);
    // The forced change is kept as an approved request too, so the request list shows every change.
    const request = await this.insertRequest(tx, newRequest(cityId, type, changes, requesterUuid, 'approved', actor));
    await this.audit.record(tx, {
      cityId,
      requestId: request.id,
      actor,
      action: `${type}_forced`,
      before: { city: before },
      after: { city: citySnapshot(city), request: requestSnapshot(request) },
    });
    await this.events.changed(tx, cityId);
  }

  private async insertRequest(tx: Transaction, request: NewCityRequest): Promise<CityRequestRecord> {
    return { ...request, id: await this.requests.insert(tx, request) };
  }

  /** The registered city as the public reads show it (committed data), or 404. */
  private async registeredView(cityId: number): Promise<CityView> {
    const city = await this.cities.getById(cityId);
    if (!city) {
      throw ApiError.notFound(msg('cities.notFound', { id: cityId }));
    }
    return city;
  }

  /** The city again, inside the lock: it may have been deleted since the first read. */
  private async reloadRegistered(tx: Transaction, cityId: number): Promise<CityRecord> {
    const city = await this.cities.getRegisteredRecord(tx, cityId);
    if (!city) {
      throw ApiError.notFound(msg('cities.notFound', { id: cityId }));
    }
    return city;
  }
}

function newRequest(cityId: number, type: EditType, changes: RequestedChanges, requesterUuid: string, status: 'pending' | 'approved', decidedBy: string | null): NewCityRequest {
  const now = new Date();
  const box = type === 'region' && changes.corners ? boundingBox(changes.corners) : { minX: null, maxX: null, minZ: null, maxZ: null };
  return {
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
  };
}
