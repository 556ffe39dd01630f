import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { normaliseUuid, positiveIntOf } from '../common/identifiers';
import { CommunityBansReader } from '../community-bans/community-bans.reader';
import type { CommunityBanRecord } from '../community-bans/community-banlist-bans.repository';
import { EvidenceReader, type EvidenceFile } from '../evidence/evidence.reader';
import { banTypeOf, idsByKind, isBanKind, punishmentKindOf, RECORD_KINDS, type BanRecordKind, type PunishmentRecordKind, type RecordKind, type RecordRef } from '../evidence/record-ref';
import { PlayersRepository } from '../players/players.repository';
import { PunishmentsReader } from '../punishments/punishments.reader';
import { DEFAULT_RECORDS_LIMIT } from './moderation-limits';
import { type ModerationRecord, type RecordDetail, type RecordSummary, detailOf, fromCommunityBan, fromPunishment, summaryOf } from './moderation-record';
import { boundFor, compareKeys, decodeCursor, encodeCursor, SOURCE_RANK, type SourceBound } from './record-cursor';
import { type HistoryEntryView, RecordHistoryRepository } from './record-history.repository';
import { RecordNotesRepository } from './record-notes.repository';

export interface RecordsQuery {
  kinds?: readonly RecordKind[];
  state?: 'active' | 'lifted' | 'all';
  issuer?: string;
  /** A uuid, with or without hyphens. */
  player?: string;
  from?: Date;
  to?: Date;
  cursor?: string;
  limit?: number;
}

export type EvidenceView = EvidenceFile & { url: string };

export interface RecordPage {
  record: RecordDetail;
  note: string | null;
  evidence: EvidenceView[];
  history: HistoryEntryView[];
}

/** The community bans' form of a source bound: the same keyset (older, or as old with a smaller ban id). */
function bannedAfter(bound: SourceBound): { bannedAt: Date; banId: number } {
  return { bannedAt: bound.at, banId: bound.idBelow };
}

/** Where a picture is served (public: the bans site shows it too). */
export function evidenceView(file: EvidenceFile): EvidenceView {
  return { ...file, url: `/evidence/${file.name}` };
}

/**
 * The moderation API's reads of records (docs/api.md, Moderation): one record of either source,
 * the merged list, and a record's page. Each part is read from the feature that keeps it.
 */
@Injectable()
export class ModerationRecordsService {
  constructor(
    private readonly punishments: PunishmentsReader,
    private readonly communityBans: CommunityBansReader,
    private readonly players: PlayersRepository,
    private readonly notes: RecordNotesRepository,
    private readonly history: RecordHistoryRepository,
    private readonly evidence: EvidenceReader,
  ) {}

  /** The record, or null for an id that names none of that kind (a non-numeric id included). */
  async find(ref: RecordRef): Promise<ModerationRecord | null> {
    const id = positiveIntOf(ref.id);
    if (id === undefined) {
      return null;
    }
    if (isBanKind(ref.kind)) {
      const ban = await this.communityBans.byBanId(id);
      return ban && ban.type === banTypeOf(ref.kind) ? fromCommunityBan(ban) : null;
    }
    const punishment = await this.punishments.byId(id);
    return punishment && punishment.kind === punishmentKindOf(ref.kind) ? fromPunishment(punishment) : null;
  }

  /** The record, or 404. */
  async require(ref: RecordRef): Promise<ModerationRecord> {
    const record = await this.find(ref);
    if (!record) {
      throw ApiError.notFound(msg('moderation.recordNotFound', { kind: ref.kind, id: ref.id }));
    }
    return record;
  }

  /** A record's page: the record, its note, its pictures (oldest first) and its history (oldest first). */
  async page(ref: RecordRef): Promise<RecordPage> {
    const record = await this.require(ref);
    return this.pageOf(record);
  }

  async pageOf(record: ModerationRecord): Promise<RecordPage> {
    const [[summary], note, files, history] = await Promise.all([
      this.summaries([record]),
      this.notes.getNote(record.ref),
      this.evidence.filesFor(record.ref),
      this.history.getOf(record.ref),
    ]);
    return { record: detailOf(summary, record), note, evidence: files.map(evidenceView), history };
  }

  /** The list, newest first, `limit` a page, continued by `nextCursor`. */
  async list(query: RecordsQuery): Promise<{ items: RecordSummary[]; nextCursor: string | null }> {
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !cursor) {
      throw ApiError.invalidField('cursor', msg('moderation.badCursor', { field: 'cursor' }));
    }
    const limit = query.limit ?? DEFAULT_RECORDS_LIMIT;
    const kinds = query.kinds && query.kinds.length > 0 ? query.kinds : RECORD_KINDS;
    const active = query.state === 'active' ? true : query.state === 'lifted' ? false : undefined;
    const player = query.player === undefined ? undefined : normaliseUuid(query.player);
    const common = { active, from: query.from, to: query.to };
    const banTypes = kinds.filter((kind): kind is BanRecordKind => isBanKind(kind)).map(banTypeOf);
    // Each source gives at most limit + 1 after the cursor; merged, the first limit + 1 tell whether more follow.
    const [punishments, bans] = await Promise.all([
      this.punishments.list(
        {
          ...common,
          kinds: kinds.filter((kind): kind is PunishmentRecordKind => !isBanKind(kind)).map(punishmentKindOf),
          uuid: player,
          issuedBy: query.issuer,
          before: cursor && boundFor(cursor, SOURCE_RANK.punishments),
        },
        limit + 1,
      ),
      banTypes.length === 0
        ? []
        : this.communityBans.list(
            {
              ...common,
              // Both types: no condition on the type.
              type: banTypes.length === 1 ? banTypes[0] : undefined,
              playerUuid: player,
              bannedBy: query.issuer,
              after: cursor && bannedAfter(boundFor(cursor, SOURCE_RANK.communityBans)),
            },
            limit + 1,
          ),
    ]);
    const merged = [...punishments.map(fromPunishment), ...bans.map(fromCommunityBan)].sort((a, b) => compareKeys(a.key, b.key));
    const shown = merged.slice(0, limit);
    return { items: await this.summaries(shown), nextCursor: merged.length > limit ? encodeCursor(shown[shown.length - 1].key) : null };
  }

  /** Every record of a player, newest first; `ownBans`: the player's community ban-list records when the caller read them already. */
  async ofPlayer(uuid: string, ownBans: Promise<readonly CommunityBanRecord[]> = this.communityBans.forPlayer(uuid)): Promise<RecordSummary[]> {
    const [punishments, bans] = await Promise.all([this.punishments.recordsOf(uuid), ownBans]);
    const records = [...punishments.map(fromPunishment), ...bans.map(fromCommunityBan)].sort((a, b) => compareKeys(a.key, b.key));
    return this.summaries(records);
  }

  /** Summaries with the players' current game ids, the pictures' count and the notes: a few reads per page, not per field. */
  async summaries(records: readonly ModerationRecord[]): Promise<RecordSummary[]> {
    const refs = records.map((record) => record.ref);
    const [names, counts, noted] = await Promise.all([
      this.players.getNames([...new Set(records.map((record) => record.uuid))]),
      this.evidence.countsFor(refs),
      Promise.all([...idsByKind(refs)].map(async ([kind, ids]) => [...(await this.notes.getIdsWithNotes(kind, ids))].map((id) => `${kind}:${id}`))),
    ]);
    const withNotes = new Set(noted.flat());
    return records.map((record) => {
      const key = `${record.ref.kind}:${record.ref.id}`;
      return summaryOf(record, names.get(record.uuid)?.mcid, counts.get(key) ?? 0, withNotes.has(key));
    });
  }
}
