import { Matches } from 'class-validator';
import { rule } from './validation.pipe';

/**
 * The sender's own id of a reported record (a session, a vote, a punishment, a chat account…):
 * 1 to 64 printable ASCII characters without spaces. Batches are idempotent by it (docs/game-server.md).
 */
export const SENDER_ID_PATTERN = /^[!-~]{1,64}$/;

/** Validates a sender's id, with the one message every ingest route gives. */
export const IsSenderId = (): PropertyDecorator => Matches(SENDER_ID_PATTERN, rule('validation.senderId'));
