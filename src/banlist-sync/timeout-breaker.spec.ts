import { TimeoutBreaker } from './timeout-breaker';

describe(TimeoutBreaker.name, () => {
  it('trips on the Nth timeout in a row, once', () => {
    const breaker = new TimeoutBreaker(3);
    expect([breaker.record(true), breaker.record(true)]).toEqual([false, false]);
    expect(breaker.tripped).toBe(false);
    expect(breaker.record(true)).toBe(true);
    expect(breaker.tripped).toBe(true);
    expect(breaker.record(true)).toBe(false);
  });

  it('starts counting again after any outcome that is not a timeout', () => {
    const breaker = new TimeoutBreaker(2);
    expect([breaker.record(true), breaker.record(false), breaker.record(true)]).toEqual([false, false, false]);
    expect(breaker.tripped).toBe(false);
    expect(breaker.record(true)).toBe(true);
  });

  it('refuses a limit below one', () => {
    expect(() => new TimeoutBreaker(0)).toThrow(RangeError);
  });
});
