import { retryAfterMs } from './webhook-delivery.service';
import { retryDelayMs } from './webhook-worker';

describe('retry timing', () => {
  it('doubles from the base after each failure, at most one hour apart', () => {
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(1000, failures))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(1000, 13)).toBe(3_600_000);
    expect(retryDelayMs(1000, 500)).toBe(3_600_000);
  });

  it("reads Discord's retry_after (seconds, body first, then the header)", () => {
    expect(retryAfterMs('{"retry_after": 0.25}', '3')).toBe(250);
    expect(retryAfterMs('not json', '3')).toBe(3000);
    expect(retryAfterMs('{}', undefined)).toBe(1000);
    expect(retryAfterMs('{"retry_after": 99999}', undefined)).toBe(600_000);
  });
});
