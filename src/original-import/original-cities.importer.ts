import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { CitiesRepository } from '../cities/cities.repository';
import type { CityRecord } from '../cities/city.records';
import { CITIES_LOCK } from '../cities/city-lock';
import { checkCityNameKana, NAME_KEY_MAX_LENGTH, nameKey } from '../cities/city-name';
import { PlayersRepository } from '../players/players.repository';
import { blockCount, boundingBox, MAX_COORDINATE, regionsOverlap } from '../cities/geometry';
import { fitText, MAX_TARGET_ID, Run, skipRecord } from './import-run';
import { OriginalImportRepository } from './original-import.repository';
import { sourceIdOf, cornersOf, gameIdOf, instantOf, optionalText, outsideWorld, shapeProblem, SourceRow, text, UnreadableRow, uuidOf } from './original-mapping';
import { inTransactions } from './target-session';

const TABLE = 'cities';
const COLUMNS = ['name', 'namekana', 'regionname', 'player', 'uuid', 'summary', 'name_origin', 'corners', 'reason', 'remarks', 'created_at', 'updated_at'];
/** Today's pattern for region names (docs/moving-from-original.md: imported as they are, but listed). */
const REGION_NAME = /^[a-z0-9_-]{1,32}$/;
const REGION_NAME_MAX = 32;

/** The fields a second run compares: a city edited here since the import is reported, not overwritten. */
function sameCity(a: CityRecord, b: CityRecord): boolean {
  const fields: Array<keyof CityRecord> = ['ownerUuid', 'name', 'nameKana', 'regionName', 'summary', 'origin', 'reason', 'remarks', 'blockCount', 'state'];
  return fields.every((field) => a[field] === b[field]) && JSON.stringify(a.corners) === JSON.stringify(b.corners);
}

export type { Run } from './import-run';

/** The id a source city keeps here: a positive integer an INTEGER column holds; otherwise it gets a new one. */
function keptId(sourceId: string | null): number | undefined {
  if (sourceId === null || !/^\d{1,10}$/.test(sourceId.trim())) {
    return undefined;
  }
  const id = Number(sourceId.trim());
  return id >= 1 && id <= MAX_TARGET_ID ? id : undefined;
}

/** `cities` → cities with the same ids (docs/moving-from-original.md). */
@Injectable()
export class OriginalCitiesImporter {
  constructor(
    private readonly config: AppConfig,
    private readonly cities: CitiesRepository,
    private readonly players: PlayersRepository,
    private readonly imports: OriginalImportRepository,
  ) {}

  async import(run: Run, onProgress: (rows: number) => void): Promise<void> {
    run.report.counts(TABLE);
    let rows = 0;
    for await (const page of run.source.pages(TABLE, COLUMNS)) {
      // Owners recorded only by name are looked up in the source before the transaction opens.
      const owners = new Map<SourceRow, string | null>();
      for (const row of page) {
        owners.set(row, await this.ownerOf(run, row));
      }
      await inTransactions(
        run.target,
        page,
        async (tx, chunk) => {
          // Written through the owning repositories, which bump the topics their tables feed.
          for (const row of chunk) {
            await this.importRow(run, tx, row, owners.get(row) ?? null);
          }
        },
        { lock: CITIES_LOCK },
      );
      rows += page.length;
      onProgress(rows);
    }
  }

  /** `uuid`, or where it is NULL the player of the newest login row with the name in `player`. */
  private async ownerOf(run: Run, row: SourceRow): Promise<string | null> {
    if (text(row.uuid) !== null) {
      return text(row.uuid);
    }
    const player = optionalText(row.player);
    return player === null ? null : run.source.uuidOfNewestLogin(player);
  }

  /** True when it wrote. */
  private async importRow(run: Run, tx: Transaction, row: SourceRow, owner: string | null): Promise<boolean> {
    const id = sourceIdOf(row);
    const sourceKey = text(row.id);
    let draft: Omit<CityRecord, 'id'>;
    let ownerName: string | null;
    try {
      if (owner === null) {
        skipRecord(run, TABLE, id, `owner not found: uuid is NULL and no login row has the name ${JSON.stringify(text(row.player))}`);
        return false;
      }
      if (sourceKey === null) {
        throw new UnreadableRow('id is NULL');
      }
      draft = this.cityOf(run, row, uuidOf(owner));
      ownerName = text(row.player) === null ? null : gameIdOf(row.player);
    } catch (error) {
      if (error instanceof UnreadableRow) {
        skipRecord(run, TABLE, id, error.message);
        return false;
      }
      throw error;
    }
    // What an earlier run made of this row (a link), or the city with the same id made by an import before links were kept.
    const link = await this.imports.getLink(tx, TABLE, sourceKey);
    const sameId = keptId(sourceKey);
    const earlierId = link?.targetId ?? sameId;
    const existing = earlierId === undefined ? undefined : await this.cities.getRecord(tx, earlierId);
    if (existing) {
      const city = { ...draft, id: existing.id };
      if (link || sameCity(existing, city)) {
        run.cities.set(sourceKey, existing.id);
        if (existing.id !== sameId) {
          run.report.renumber(TABLE, id ?? sourceKey, existing.id);
        }
        if (!link) {
          await this.imports.saveLink(tx, TABLE, sourceKey, existing.id, 'imported');
        }
      }
      if (sameCity(existing, city)) {
        run.report.count(TABLE, 'unchanged');
      } else if (link) {
        // Ours, changed here since (an approved request): its requests still belong to it.
        run.report.count(TABLE, 'unchanged');
        run.report.problem(TABLE, id, `city ${existing.id} was changed here since the import; kept as it is`);
      } else {
        skipRecord(run, TABLE, id, `city ${existing.id} exists here with other data (a city made here); not imported, nor anything that belongs to it`);
      }
      return false;
    }
    const taken = await this.takenName(tx, { ...draft, id: 0 });
    if (taken) {
      skipRecord(run, TABLE, id, taken);
      return false;
    }
    // The owner's players row (a city owner need not have logged in since the cutoff).
    if (!(await this.players.getInTransaction(tx, draft.ownerUuid))) {
      if (ownerName === null) {
        skipRecord(run, TABLE, id, 'the owner has no login record and the row names no player');
        return false;
      }
      await this.players.createIfAbsent(tx, draft.ownerUuid, ownerName, draft.createdAt);
    }
    const cityId = sameId ?? (await this.imports.nextId(tx, 'cities'));
    const city: CityRecord = { ...draft, id: cityId };
    for (const rule of await this.brokenRules(tx, city)) {
      run.report.problem(TABLE, id, `imported as it is, but breaks today's rules: ${rule}`);
    }
    await this.cities.insertWithId(tx, city);
    await this.imports.saveLink(tx, TABLE, sourceKey, cityId, 'imported');
    if (sameId === undefined) {
      run.report.renumber(TABLE, id ?? sourceKey, cityId);
    }
    run.cities.set(sourceKey, cityId);
    run.report.count(TABLE, 'imported');
    return true;
  }

  /** The source row as a registered city (its id decided later); throws UnreadableRow. */
  private cityOf(run: Run, row: SourceRow, ownerUuid: string): Omit<CityRecord, 'id'> {
    const name = optionalText(row.name);
    const nameKana = optionalText(row.namekana);
    if (name === null || name.length > 64 || nameKey(name).length > NAME_KEY_MAX_LENGTH) {
      throw new UnreadableRow('name is missing or longer than 64 characters');
    }
    if (nameKana === null || nameKana.length > 64 || nameKey(nameKana).length > NAME_KEY_MAX_LENGTH) {
      throw new UnreadableRow('namekana is missing or longer than 64 characters');
    }
    const regionName = optionalText(row.regionname)?.toLowerCase() ?? null;
    if (regionName !== null && regionName.length > REGION_NAME_MAX) {
      throw new UnreadableRow(`regionname is longer than ${REGION_NAME_MAX} characters`);
    }
    const corners = cornersOf(row.corners);
    if (outsideWorld(corners)) {
      throw new UnreadableRow(`corners lie outside the world's bounds (±${MAX_COORDINATE}): such a city would block every later request`);
    }
    fitText(run.limits, 'corners', JSON.stringify(corners));
    const blocks = Math.round(blockCount(corners));
    if (blocks > MAX_TARGET_ID) {
      throw new UnreadableRow(`the region covers ${blocks} blocks, more than a block count column holds`);
    }
    const createdAt = instantOf(row.created_at, run.offset, 'created_at');
    const updatedAt = text(row.updated_at) === null ? createdAt : instantOf(row.updated_at, run.offset, 'updated_at');
    return {
      state: 'active',
      ownerUuid,
      name,
      nameKana,
      nameKey: nameKey(name),
      kanaKey: nameKey(nameKana),
      regionName,
      regionKey: regionName,
      summary: fitText(run.limits, 'summary', optionalText(row.summary)),
      origin: fitText(run.limits, 'name_origin', optionalText(row.name_origin)),
      reason: fitText(run.limits, 'reason', optionalText(row.reason)),
      remarks: fitText(run.limits, 'remarks', optionalText(row.remarks)),
      corners,
      // Computed from the corners: the original's blocknum went stale after area changes.
      blockCount: blocks,
      ...boundingBox(corners),
      createdAt,
      updatedAt,
    };
  }

  private async takenName(tx: Transaction, city: CityRecord): Promise<string | undefined> {
    const claims: Array<['name_key' | 'kana_key' | 'region_key', string | null, string]> = [
      ['name_key', city.nameKey, 'name'],
      ['kana_key', city.kanaKey, 'kana'],
      ['region_key', city.regionKey, 'region name'],
    ];
    for (const [column, key, label] of claims) {
      const holder = key ? await this.cities.getNameHolder(tx, column, key, city.id) : undefined;
      if (holder) {
        return `its ${label} is taken here by city ${holder.id} (${holder.name}); not imported`;
      }
    }
    return undefined;
  }

  private async brokenRules(tx: Transaction, city: CityRecord): Promise<string[]> {
    const broken: string[] = [];
    const shape = shapeProblem(city.corners);
    if (shape) {
      broken.push(shape);
    }
    if (city.blockCount > this.config.CITY_BLOCK_MAX) {
      broken.push(`${city.blockCount} blocks, over the maximum of ${this.config.CITY_BLOCK_MAX}`);
    } else if (city.blockCount > this.config.CITY_BLOCK_LIMIT && city.reason === null) {
      broken.push(`${city.blockCount} blocks, over ${this.config.CITY_BLOCK_LIMIT} without a reason`);
    }
    if (city.regionName !== null && !REGION_NAME.test(city.regionName)) {
      broken.push(`region name ${JSON.stringify(city.regionName)} is outside today's pattern`);
    }
    if (!checkCityNameKana(city.nameKana).ok) {
      broken.push('the kana reading holds characters that are not kana');
    }
    const overlapping = (await this.cities.getClaimedRegionsInBox(tx, city, city.id)).filter((claim) =>
      regionsOverlap(city.corners, claim.corners),
    );
    broken.push(...overlapping.map((claim) => `overlaps city ${claim.cityId} (${claim.name})`));
    return broken;
  }
}
