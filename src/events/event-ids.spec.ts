import { eventIdFloor } from './event-ids';

describe(eventIdFloor.name, () => {
  it('grows with the clock and stays an exact JavaScript integer for centuries', () => {
    const earlier = eventIdFloor(new Date('2026-11-26T08:00:00Z'));
    const later = eventIdFloor(new Date('2026-11-26T08:00:01Z'));
    expect(later - earlier).toBe(1000);
    expect(Number.isSafeInteger(eventIdFloor(new Date('2500-01-01T00:00:00Z')))).toBe(true);
  });
});
