import { PlaceShares } from './place-shares';

describe(PlaceShares.name, () => {
  it('lets each key hold its share, refuses the next one of that key, and still admits others', () => {
    const places = new PlaceShares({ apiKey: 2, address: 3 }, 10);
    expect(places.take({ apiKey: 'game', address: 'x' }).ok).toBe(true);
    expect(places.take({ apiKey: 'game', address: 'y' }).ok).toBe(true);
    expect(places.take({ apiKey: 'game', address: 'z' })).toEqual({ ok: false, reason: 'share', keyKind: 'apiKey', share: 2 });
    expect(places.take({ apiKey: 'other', address: 'x' }).ok).toBe(true);
    expect(places.take({ apiKey: 'other', address: 'x' }).ok).toBe(true);
    // Address x now holds three places (game, other, other): a third key from it is refused too.
    expect(places.take({ apiKey: 'third', address: 'x' })).toEqual({ ok: false, reason: 'share', keyKind: 'address', share: 3 });
    expect(places.take({ apiKey: 'third', address: 'w' }).ok).toBe(true);
    expect(places.size).toBe(5);
  });

  it('refuses past the total whoever asks, and gives places back once released (once only)', () => {
    const places = new PlaceShares({ apiKey: 100, address: 100 }, 2);
    const first = places.take({ apiKey: 'a', address: 'x' });
    const second = places.take({ apiKey: 'b', address: 'y' });
    expect(places.take({ apiKey: 'c', address: 'z' })).toEqual({ ok: false, reason: 'total', total: 2 });
    if (!first.ok || !second.ok) {
      throw new Error('expected places');
    }
    first.release();
    first.release();
    expect(places.size).toBe(1);
    expect(places.heldBy('apiKey', 'a')).toBe(0);
    expect(places.take({ apiKey: 'c', address: 'z' }).ok).toBe(true);
    expect(places.take({ apiKey: 'd', address: 'z' })).toMatchObject({ ok: false, reason: 'total' });
  });

  it('tells a holder at its share so even when the total is full as well', () => {
    const places = new PlaceShares({ apiKey: 1 }, 1);
    expect(places.take({ apiKey: 'a', address: 'x' }).ok).toBe(true);
    expect(places.take({ apiKey: 'a', address: 'x' })).toMatchObject({ ok: false, reason: 'share' });
    expect(places.take({ apiKey: 'b', address: 'x' })).toMatchObject({ ok: false, reason: 'total' });
  });
});
