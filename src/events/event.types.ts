/** Contract 13.6: the event types and their shapes. Plain types, no Nest imports. */

export const EVENT_TYPES = [
  'city.request.created',
  'city.request.approved',
  'city.request.rejected',
  'city.changed',
  'city.deleted',
  'banlist.sync.finished',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What `X-Community-Event` says for `POST /webhooks/{id}/test`. */
export const PING_TYPE = 'ping';

/** The event object of the feed and of a `json` webhook body. */
export interface EventView {
  id: number;
  type: EventType;
  at: string;
  data: Record<string, unknown>;
}

export function subscribes(subscription: readonly string[], type: string): boolean {
  return subscription.includes('*') || subscription.includes(type);
}
