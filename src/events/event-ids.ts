/**
 * Event ids after a restore (docs/backup-and-restore.md). Ids count up by one from the single
 * `event_seq` row. A restore puts back an older row, so without care the ids handed out after
 * the backup would be handed out again, to different events, and a consumer holding such an id
 * as its cursor would never see them. The restore therefore moves the sequence to at least this
 * floor: the time in milliseconds. Every id handed out before stays below it as long as events
 * were not recorded faster than a thousand a second on average since the sequence last jumped
 * (a community records a few a minute), so new ids are always greater than any id seen before.
 * The values stay far below 2^53: exact in JavaScript numbers and in 64-bit integers.
 */
export function eventIdFloor(now: Date): number {
  return now.getTime();
}
