import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { UnitOfWork } from '../database/unit-of-work';
import { EvidenceService } from '../evidence/evidence.service';
import { PunishmentsService } from '../punishments/punishments.service';
import { detailOf, type RecordDetail } from './moderation-record';
import { evidenceView, ModerationRecordsService, type EvidenceView } from './moderation-records.service';
import { RecordHistoryRepository } from './record-history.repository';
import { isBanKind, punishmentKindOf, type RecordRef } from '../evidence/record-ref';
import { RecordNotesRepository } from './record-notes.repository';

/**
 * What operators change on a record (docs/api.md, Moderation): a lift, the note, the pictures.
 * Each change and its history entry commit in one transaction; the record is looked up first, so
 * an unknown one is a 404 and nothing is written.
 */
@Injectable()
export class ModerationChangesService {
  constructor(
    private readonly records: ModerationRecordsService,
    private readonly punishments: PunishmentsService,
    private readonly notes: RecordNotesRepository,
    private readonly history: RecordHistoryRepository,
    private readonly evidence: EvidenceService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Lifts a punishment in force and records `punishment.lifted` (the game server learns it from
   * the feed). A ban-list record is lifted on the ban-list service, not here: 409. Of two
   * operators lifting at once, one wins and the other gets 409 (the row decides).
   */
  async lift(ref: RecordRef, reason: string | null, actor: string): Promise<RecordDetail> {
    const record = await this.records.require(ref);
    if (isBanKind(ref.kind)) {
      throw ApiError.conflict(msg('moderation.liftOnBanlist', { kind: ref.kind }));
    }
    const kind = punishmentKindOf(ref.kind);
    const at = new Date();
    await this.unitOfWork.transaction(async (tx) => {
      const lifted = await this.punishments.liftByOperatorIn(tx, record.key.id, kind, { liftedAt: at, liftedBy: actor, reason });
      if (lifted.outcome === 'missing') {
        throw ApiError.notFound(msg('moderation.recordNotFound', { kind: ref.kind, id: ref.id }));
      }
      if (lifted.outcome === 'already-lifted') {
        throw ApiError.conflict(msg('moderation.alreadyLifted', { kind: ref.kind, id: ref.id }));
      }
      await this.history.insert(tx, ref, { actor, action: 'lifted', detail: reason, at });
    });
    // The record as it is now, with its summary's counts: not the whole page (notes, pictures, history).
    const fresh = await this.records.require(ref);
    const [summary] = await this.records.summaries([fresh]);
    return detailOf(summary, fresh);
  }

  /** Sets the note (an empty or blank one clears it); a note equal to the current one changes nothing and adds no entry. */
  async setNote(ref: RecordRef, text: string, actor: string): Promise<{ note: string | null }> {
    await this.records.require(ref);
    const note = text.trim() === '' ? null : text;
    await this.unitOfWork.transaction(async (tx) => {
      if ((await this.notes.getNoteIn(tx, ref)) === note) {
        return;
      }
      const at = new Date();
      if (note === null) {
        await this.notes.delete(tx, ref);
      } else {
        await this.notes.upsert(tx, ref, note, actor, at);
      }
      await this.history.insert(tx, ref, { actor, action: 'note', detail: note, at });
    });
    return { note };
  }

  /** Adds a picture: checked and stripped outside the transaction (slow), stored with its history entry inside it. */
  async addEvidence(ref: RecordRef, body: Buffer, actor: string): Promise<EvidenceView> {
    await this.records.require(ref);
    const picture = await this.evidence.prepare(body);
    const file = await this.unitOfWork.transaction(async (tx) => {
      const stored = await this.evidence.store(tx, ref, picture, actor);
      await this.history.insert(tx, ref, { actor, action: 'evidence-added', detail: stored.name, at: new Date() });
      return stored;
    });
    return evidenceView(file);
  }

  /** Removes a picture of the record; 404 when the record has none of that name. */
  async removeEvidence(ref: RecordRef, name: string, actor: string): Promise<{ removed: true }> {
    await this.records.require(ref);
    await this.unitOfWork.transaction(async (tx) => {
      if (!(await this.evidence.remove(tx, ref, name))) {
        throw ApiError.notFound(msg('moderation.evidenceNotFound', { name }));
      }
      await this.history.insert(tx, ref, { actor, action: 'evidence-removed', detail: name, at: new Date() });
    });
    return { removed: true };
  }
}
