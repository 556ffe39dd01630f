import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { BoundedSemaphore } from '../common/limits/bounded-semaphore';
import { msg } from '../common/errors/messages';
import type { Transaction } from '../database/transaction';
import { MAX_EVIDENCE_BYTES, MAX_EVIDENCE_PIXELS, PictureRefused, preparePicture, type PictureProblem, type PreparedPicture } from './evidence-picture';
import { type EvidenceFile, EvidenceRepository } from './evidence.repository';
import type { RecordRef } from './record-ref';

export type { PreparedPicture } from './evidence-picture';

/**
 * Pictures decoded at once, and callers allowed to wait for a turn (one more: 503). A picture of
 * up to 25 million pixels decodes to about 100 MB; unbounded, a few operators uploading at once
 * would hold that many times over outside the heap's limit.
 */
export const EVIDENCE_DECODE_SLOTS = 2;
export const EVIDENCE_DECODE_WAITING = 16;

/** Who added a picture, as stored (the column's length). */
const ADDED_BY_MAX = 64;

function refusal(problem: PictureProblem): ApiError {
  switch (problem) {
    case 'empty':
      return ApiError.badRequest('evidence.empty');
    case 'too-large':
      return new ApiError(413, 'payload_too_large', msg('evidence.tooLarge', { max: MAX_EVIDENCE_BYTES / 1024 / 1024 }));
    case 'unsupported':
      // The API's one 415: the body's own bytes, not its Content-Type, are of a type not taken.
      return new ApiError(415, 'invalid_request', 'evidence.unsupportedType');
    case 'undecodable':
      return ApiError.badRequest('evidence.undecodable');
    case 'too-many-pixels':
      return ApiError.badRequest(msg('evidence.tooManyPixels', { max: MAX_EVIDENCE_PIXELS }));
  }
}

/**
 * Evidence pictures for the operator routes (docs/bans-site.md, "Evidence pictures"): `prepare`
 * does the slow part (decoding and encoding) outside any transaction; `store` and `remove` run in
 * the caller's transaction, beside its history entry.
 */
@Injectable()
export class EvidenceService {
  private readonly decoding = new BoundedSemaphore('the evidence pictures being decoded', EVIDENCE_DECODE_SLOTS, EVIDENCE_DECODE_WAITING);

  constructor(private readonly repository: EvidenceRepository) {}

  /** The picture checked and stripped, with its new name; 415, 413 or 400 when it is not taken, 503 when too many wait. */
  async prepare(body: Buffer): Promise<PreparedPicture> {
    try {
      return await this.decoding.run(() => preparePicture(body));
    } catch (error) {
      throw error instanceof PictureRefused ? refusal(error.problem) : error;
    }
  }

  store(tx: Transaction, record: RecordRef, picture: PreparedPicture, addedBy: string): Promise<EvidenceFile> {
    return this.repository.insert(tx, record, picture, addedBy.slice(0, ADDED_BY_MAX), new Date());
  }

  /** False when the record has no picture of that name. */
  remove(tx: Transaction, record: RecordRef, name: string): Promise<boolean> {
    return this.repository.remove(tx, record, name);
  }
}
