/**
 * A backup or restore that was refused before it changed anything: the CLI exits 2 with the
 * message as its one line (docs/backup-and-restore.md, Exit codes).
 */
export class Refused extends Error {}

/**
 * A restore that failed part-way: exit 1, the message says what state is left (the live data is
 * never half-changed; a scratch copy may be left for the next run to clear).
 */
export class FailedPartWay extends Error {}

/** The message of anything thrown, without a stack. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
