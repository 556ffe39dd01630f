/**
 * Who holds a place, by each kind of key a share applies to (for long-polls: the API key and the
 * client address).
 */
export type PlaceHolder = Readonly<Record<string, string>>;

/** Why a place was refused: one of the holder's keys is at its share, or every place is taken. */
export type PlaceRefusal = { reason: 'share'; keyKind: string; share: number } | { reason: 'total'; total: number };

export type PlaceOutcome = { ok: true; release: () => void } | ({ ok: false } & PlaceRefusal);

/**
 * A fixed number of places (long-polls waiting, for instance), of which each key may hold only
 * its share, so that one consumer cannot take them all and lock the others out
 * (docs/reliability.md, "Fair shares"). Pure: counts only; the caller decides what a refusal
 * means to a client.
 */
export class PlaceShares {
  private taken = 0;
  private readonly held = new Map<string, number>();

  constructor(
    /** Places one value of each key kind may hold; kinds not named here are not limited. */
    private readonly shares: Readonly<Record<string, number>>,
    private readonly total: number,
  ) {}

  /** Places taken now. */
  get size(): number {
    return this.taken;
  }

  /** Places held now by one key (for tests and diagnostics). */
  heldBy(kind: string, value: string): number {
    return this.held.get(`${kind}:${value}`) ?? 0;
  }

  /**
   * Takes a place for `holder`, or says why not: a key at its share is told before a full total,
   * since it is that holder's own doing. `release` gives the place back (once; later calls do nothing).
   */
  take(holder: PlaceHolder): PlaceOutcome {
    const keys: string[] = [];
    for (const [kind, value] of Object.entries(holder)) {
      const key = `${kind}:${value}`;
      const share = this.shares[kind];
      if (share !== undefined && (this.held.get(key) ?? 0) >= share) {
        return { ok: false, reason: 'share', keyKind: kind, share };
      }
      keys.push(key);
    }
    if (this.taken >= this.total) {
      return { ok: false, reason: 'total', total: this.total };
    }
    this.taken += 1;
    for (const key of keys) {
      this.held.set(key, (this.held.get(key) ?? 0) + 1);
    }
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) {
          return;
        }
        released = true;
        this.taken -= 1;
        for (const key of keys) {
          const count = (this.held.get(key) ?? 1) - 1;
          if (count > 0) {
            this.held.set(key, count);
          } else {
            this.held.delete(key);
          }
        }
      },
    };
  }
}
