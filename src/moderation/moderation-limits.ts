/** The moderation API's limits (docs/api.md, Moderation). */

/** A note's and a lift reason's length, in characters. */
export const NOTE_MAX = 2000;

/** The record list's page size. */
export const DEFAULT_RECORDS_LIMIT = 50;
export const MAX_RECORDS_LIMIT = 100;

/** How many players a search answers, and how many logins a player's page shows. */
export const SEARCH_MATCHES = 20;
export const PAGE_LOGINS = 20;
