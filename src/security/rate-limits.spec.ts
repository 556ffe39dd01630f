import { RATE_LIMITS, scaledSeconds, SIGN_IN_REFUSALS, slowdownSeconds } from './rate-limits';

describe(slowdownSeconds.name, () => {
  const delay = (failures: number) =>
    slowdownSeconds(failures, RATE_LIMITS.failuresPerAccount.points, SIGN_IN_REFUSALS.firstDelaySeconds, SIGN_IN_REFUSALS.maxDelaySeconds);

  it('adds no delay below 20 failures', () => {
    expect([0, 1, 10, 19].map(delay)).toEqual([0, 0, 0, 0]);
  });

  it('starts at 1 s at the 20th failure and doubles with each further one', () => {
    expect([20, 21, 22, 23, 29].map(delay)).toEqual([1, 2, 4, 8, 512]);
  });

  it('never waits more than 15 minutes, however many failures', () => {
    expect([30, 31, 100, 10_000].map(delay)).toEqual([900, 900, 900, 900]);
  });
});

describe(scaledSeconds.name, () => {
  it('keeps production durations at scale 1', () => {
    expect(scaledSeconds(900, 1)).toBe(900);
  });

  it('shrinks for tests, in whole seconds, never below one', () => {
    expect(scaledSeconds(900, 0.01)).toBe(9);
    expect(scaledSeconds(1, 0.01)).toBe(1);
  });
});
