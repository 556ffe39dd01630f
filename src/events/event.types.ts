/** The event types and their shapes (docs/events-and-webhooks.md, Event types). Plain types, no Nest imports. */

export const EVENT_TYPES = [
  'city.request.created',
  'city.request.approved',
  'city.request.rejected',
  'city.changed',
  'city.deleted',
  'banlist.sync.finished',
  'punishment.issued',
  'punishment.lifted',
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

/**
 * `data.punishment` of `punishment.issued` and `punishment.lifted`: the punishment after the change.
 * Defined here, recorded by the punishments feature (the outbox knows no feature).
 */
export interface PunishmentEventData {
  punishment: {
    id: number;
    kind: 'jail' | 'chatjail' | 'eban' | 'vban';
    uuid: string;
    mcid: string;
    reason: string;
    testment: string | null;
    active: boolean;
    issuedBy: string;
    issuedAt: string;
    liftedAt: string | null;
  };
}
