import type { PlayerName } from './discord-message';

/**
 * What the events feature needs of the players it mentions: their names, for Discord messages.
 * The outbox knows no feature, so it asks through this port; the application's root module binds
 * it to the players feature's repository (docs/design-and-performance.md, "Design").
 */
export abstract class PlayerNameLookup {
  abstract getNames(uuids: readonly string[]): Promise<ReadonlyMap<string, PlayerName>>;
}
