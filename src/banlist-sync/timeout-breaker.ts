/**
 * The ban-list run's circuit breaker (docs/reliability.md): an upstream that stopped answering
 * would otherwise cost one full timeout per remaining player (hours for a large community).
 * Counts timeouts in a row across the run's workers; any other outcome (an answer, a refusal)
 * shows the upstream is alive and starts the count again.
 */
export class TimeoutBreaker {
  private inARow = 0;
  private isTripped = false;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError('limit must be a positive integer');
    }
  }

  /** Records one fetch's outcome; true exactly once, on the timeout that reaches the limit. */
  record(timedOut: boolean): boolean {
    if (this.isTripped) {
      return false;
    }
    this.inARow = timedOut ? this.inARow + 1 : 0;
    if (this.inARow >= this.limit) {
      this.isTripped = true;
      return true;
    }
    return false;
  }

  get tripped(): boolean {
    return this.isTripped;
  }
}
