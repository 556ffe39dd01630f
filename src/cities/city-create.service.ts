import { Injectable } from '@nestjs/common';
import { CaptchaService } from '../captcha/captcha.service';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { CitiesRepository } from './cities.repository';
import { CITIES_LOCK } from './city-lock';
import { CityAuditService } from './city-audit.service';
import type { RequestCredentials } from './city-credentials';
import { checkCreateInput, CreateDraft } from './city-input';
import { pendingKeyOf, RequestedChanges } from './city-request.entity';
import { CityEvents } from './city-events';
import { CityRequestsRepository } from './city-requests.repository';
import type { CityRecord, NewCity, NewCityRequest } from './city.records';
import { CityRulesService, conflictFromUniqueViolation } from './city-rules.service';
import { citySnapshot, requestSnapshot } from './city.view';
import type { CreateCityDto } from './dto/city.dto';
import { RequesterResolver } from './requester-resolver';

export interface CreateCityResult {
  requestId: number;
  /** The earlier service's name, read by the earlier club site. */
  request_id: number;
  cityId: number;
  requestStatus: 'pending' | 'approved';
}

@Injectable()
export class CityCreateService {
  constructor(
    private readonly rules: CityRulesService,
    private readonly audit: CityAuditService,
    private readonly requesters: RequesterResolver,
    private readonly captcha: CaptchaService,
    private readonly unitOfWork: UnitOfWork,
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly events: CityEvents,
  ) {}

  /**
   * Order matters to users: bad input (400) before credentials (401/403), CAPTCHA next, then the
   * conflict rules and the writes in one locked transaction that also spends the user key — so a
   * refused request leaves the key unspent.
   */
  async create(input: CreateCityDto, credentials: RequestCredentials, ip: string): Promise<CreateCityResult> {
    const draft = checkCreateInput(input, this.rules.limits);
    const requester = await this.requesters.resolve(credentials, input.force === true);
    const { forcedBy } = requester;
    await this.captcha.verify(input.recaptcha, ip);
    try {
      return await this.unitOfWork.transaction(
        async (tx) => {
          await this.rules.assertOwnerBelowLimit(tx, requester.playerUuid);
          await this.rules.assertNamesFree(tx, { name: draft.name.key, kana: draft.kana.key, regionName: draft.regionName ?? undefined });
          await this.rules.assertRegionFree(tx, draft.region.corners, draft.region.box);
          const now = new Date();
          const city = await this.insertCity(tx, draft, requester.playerUuid, forcedBy ? 'active' : 'pending', now);
          const cityId = city.id;
          const request: NewCityRequest = {
            cityId,
            type: 'create',
            status: forcedBy ? 'approved' : 'pending',
            pendingKey: forcedBy ? null : pendingKeyOf(cityId, 'create'),
            changes: createChanges(draft),
            requesterUuid: requester.playerUuid,
            remarks: draft.remarks,
            minX: null,
            maxX: null,
            minZ: null,
            maxZ: null,
            createdAt: now,
            decidedAt: forcedBy ? now : null,
            decidedBy: forcedBy ?? null,
            rejectReason: null,
          };
          const requestId = await this.requests.insert(tx, request);
          await this.audit.record(tx, {
            cityId,
            requestId,
            actor: forcedBy ?? requester.actor,
            action: forcedBy ? 'create_forced' : 'create_requested',
            after: { city: citySnapshot(city), request: requestSnapshot({ ...request, id: requestId }) },
          });
          await this.requesters.spendKey(tx, requester);
          // A forced create is filed and approved at once: both events, in that order.
          await this.events.created(tx, requestId, cityId);
          if (forcedBy) {
            await this.events.approved(tx, requestId, cityId);
          }
          return { requestId, request_id: requestId, cityId, requestStatus: forcedBy ? 'approved' : 'pending' } as const;
        },
        { lock: CITIES_LOCK },
      );
    } catch (error) {
      throw conflictFromUniqueViolation(error);
    }
  }

  private async insertCity(tx: Transaction, draft: CreateDraft, ownerUuid: string, state: 'pending' | 'active', now: Date): Promise<CityRecord> {
    const { region } = draft;
    const city: NewCity = {
      state,
      ownerUuid,
      name: draft.name.value,
      nameKana: draft.kana.value,
      nameKey: draft.name.key,
      kanaKey: draft.kana.key,
      regionName: draft.regionName,
      regionKey: draft.regionName,
      summary: draft.summary,
      origin: draft.origin,
      reason: region.reason,
      remarks: draft.remarks,
      corners: region.corners,
      blockCount: region.count,
      ...region.box,
      createdAt: now,
      updatedAt: now,
    };
    return { ...city, id: await this.cities.insert(tx, city) };
  }
}

function createChanges(draft: CreateDraft): RequestedChanges {
  const optional = { regionName: draft.regionName, summary: draft.summary, origin: draft.origin, reason: draft.region.reason, remarks: draft.remarks };
  return {
    cityName: draft.name.value,
    cityNameKana: draft.kana.value,
    corners: draft.region.corners,
    count: draft.region.count,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== null)),
  };
}
