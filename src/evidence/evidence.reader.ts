import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { EVIDENCE_NAME_PATTERN } from './evidence-picture';
import { type EvidenceContent, type EvidenceFile, EvidenceRepository } from './evidence.repository';
import { idsByKind, type RecordRef } from './record-ref';

export type { EvidenceFile } from './evidence.repository';

/** What the bans site, the moderation API and `GET /evidence/{name}` read of evidence pictures. */
@Injectable()
export class EvidenceReader {
  constructor(private readonly repository: EvidenceRepository) {}

  /** A record's pictures, oldest first. */
  filesFor(record: RecordRef): Promise<EvidenceFile[]> {
    return this.repository.listFor(record);
  }

  /** The names of a record's pictures, oldest first. */
  namesFor(record: RecordRef): Promise<string[]> {
    return this.repository.namesFor(record);
  }

  /** How many pictures each record has (the moderation API's lists), keyed `kind:id`; 0 is absent. */
  async countsFor(records: readonly RecordRef[]): Promise<Map<string, number>> {
    const perKind = await Promise.all([...idsByKind(records)].map(async ([kind, ids]) => ({ kind, counts: await this.repository.countsFor(kind, ids) })));
    const counts = new Map<string, number>();
    for (const { kind, counts: ofKind } of perKind) {
      for (const [id, count] of ofKind) {
        counts.set(`${kind}:${id}`, count);
      }
    }
    return counts;
  }

  /** A picture by name; 404 for a name that is not one (no query) or not stored. */
  async content(name: string): Promise<EvidenceContent> {
    const content = EVIDENCE_NAME_PATTERN.test(name) ? await this.repository.getContent(name) : undefined;
    if (!content) {
      throw ApiError.notFound('evidence.notFound');
    }
    return content;
  }
}
