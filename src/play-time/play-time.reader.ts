import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { AwayRepository } from './away.repository';
import { dayOf, epochSeconds } from './play-spans';
import { PlayTotalsRepository } from './play-totals.repository';

/** The heatmap shows this many days, today included. */
export const HEATMAP_DAYS = 366;

/** `YYYY-MM-DD` moved by whole days. */
function daysBefore(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date - days)).toISOString().slice(0, 10);
}

/**
 * What the players site reads of play time (docs/players-site.md): each method one indexed
 * lookup of rows kept up to date as sessions arrive, never a sum over a player's sessions.
 * `uuid` is a game UUID with hyphens (any case); a player without data reads as empty.
 */
@Injectable()
export class PlayTimeReader {
  constructor(
    private readonly totals: PlayTotalsRepository,
    private readonly away: AwayRepository,
    private readonly config: AppConfig,
  ) {}

  /** Days with play within the last 366 days (today in COMMUNITY_TIME_ZONE included), oldest first; `count` in seconds, at most 86400. */
  async dailyOnline(uuid: string, now: Date): Promise<Array<{ date: string; count: number }>> {
    const today = dayOf(epochSeconds(now), this.config.COMMUNITY_TIME_ZONE);
    const days = await this.totals.getDays(uuid.toLowerCase(), daysBefore(today, HEATMAP_DAYS - 1), today);
    return days.map((row) => ({ date: row.day, count: row.seconds }));
  }

  /** Seconds per era key (imported plus recorded), in the order of PLAYER_ERAS; an era without data is absent. */
  async eraTotals(uuid: string): Promise<Map<string, number>> {
    const rows = await this.totals.getEraTotals(uuid.toLowerCase());
    const order = this.config.eras.map((era) => era.key);
    const rank = (era: string): number => (order.includes(era) ? order.indexOf(era) : order.length);
    rows.sort((a, b) => rank(a.era) - rank(b.era) || (a.era < b.era ? -1 : 1));
    return new Map(rows.map((row) => [row.era, row.seconds]));
  }

  /** Seconds away from the keyboard in total; 0 when none. */
  awaySeconds(uuid: string): Promise<number> {
    return this.away.getTotal(uuid.toLowerCase());
  }
}
