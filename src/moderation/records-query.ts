/** The record list's route and the one query parameter it takes repeated (`kind=vban&kind=eban`), read by app.factory.ts. */
export const RECORDS_LIST_URL = '/moderation/records';
export const REPEATABLE_RECORDS_QUERY: ReadonlySet<string> = new Set(['kind']);
