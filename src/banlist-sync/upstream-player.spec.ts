import { backoffMs, parseUpstreamPlayer, retryAfterMs } from './upstream-player';

const UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

function body(overrides: Record<string, unknown> = {}, ban: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    playerId: 12,
    name: 'Notch',
    uuid: UUID.replace(/-/g, ''),
    reputation: 7.5,
    bans: [
      {
        banId: 101,
        type: 'Global',
        reason: 'griefing',
        bannedAt: '2020-05-01T12:00:00.000Z',
        server: { serverId: 3, address: 'play.example.net' },
        bannedBy: { playerId: 9, name: 'Mod', uuid: 'ffffffffffffffffffffffffffffffff' },
        ...ban,
      },
    ],
    lastCheckedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function problemOf(value: unknown): string {
  const result = parseUpstreamPlayer(value, UUID);
  if (result.ok) {
    throw new Error('expected a problem');
  }
  return result.problem;
}

describe(parseUpstreamPlayer.name, () => {
  it('maps a valid body to our ban fields', () => {
    expect(parseUpstreamPlayer(body(), UUID)).toEqual({
      ok: true,
      player: {
        uuid: UUID,
        name: 'Notch',
        reputation: 7.5,
        bans: [
          {
            banId: 101,
            type: 'global',
            reason: 'griefing',
            server: 'play.example.net',
            bannedBy: 'Mod',
            lostRep: null,
            bannedAt: new Date('2020-05-01T12:00:00.000Z'),
          },
        ],
      },
    });
  });

  it('accepts the uuid with hyphens and in upper case', () => {
    expect(parseUpstreamPlayer(body({ uuid: UUID.toUpperCase() }), UUID).ok).toBe(true);
  });

  it.each([
    [{ bannedBy: { name: null, uuid: 'ffffffffffffffffffffffffffffffff' } }, 'ffffffffffffffffffffffffffffffff'],
    [{ bannedBy: { name: '', uuid: 'abc' } }, 'abc'],
    [{ bannedBy: { name: null, uuid: null } }, null],
    [{ bannedBy: null }, null],
    [{ bannedBy: undefined }, null],
  ])('takes bannedBy from the name, else the uuid, else null (%j)', (ban, expected) => {
    const result = parseUpstreamPlayer(body({}, ban), UUID);
    expect(result.ok && result.player.bans[0].bannedBy).toBe(expected);
  });

  it('keeps a null server and a lostRep when given', () => {
    const result = parseUpstreamPlayer(body({}, { server: null, lostRep: 1.5, type: 'local' }), UUID);
    expect(result.ok && result.player.bans[0]).toMatchObject({ server: null, lostRep: 1.5, type: 'local' });
  });

  it('accepts no bans and ignores unknown fields', () => {
    const result = parseUpstreamPlayer(body({ bans: [], issuedBans: [{}], ownedServers: 'x' }), UUID);
    expect(result.ok && result.player.bans).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['an array', []],
    ['null', null],
    ['a string', 'hello'],
    ['no playerId', body({ playerId: undefined })],
    ['a string reputation', body({ reputation: '7' })],
    ['an infinite reputation', body({ reputation: Infinity })],
    ['another player', body({ uuid: 'ffffffffffffffffffffffffffffffff' })],
    ['a bad uuid', body({ uuid: 'nope' })],
    ['a null uuid', body({ uuid: null })],
    ['no name', body({ name: undefined })],
    ['an empty name', body({ name: ' ' })],
    ['bans not an array', body({ bans: {} })],
    ['a bad lastCheckedAt', body({ lastCheckedAt: 'yesterday' })],
    ['a ban that is not an object', body({ bans: [42] })],
    ['a fractional banId', body({}, { banId: 1.5 })],
    ['a zero banId', body({}, { banId: 0 })],
    ['a string banId', body({}, { banId: '101' })],
    ['an unknown type', body({}, { type: 'temp' })],
    ['a missing reason', body({}, { reason: undefined })],
    ['a date without zone', body({}, { bannedAt: '2020-05-01 12:00:00' })],
    ['an impossible date', body({}, { bannedAt: '2020-13-45T12:00:00Z' })],
    ['a server that is a string', body({}, { server: 'play.example.net' })],
    ['a numeric server address', body({}, { server: { address: 5 } })],
    ['a bannedBy that is a string', body({}, { bannedBy: 'Mod' })],
    ['a string lostRep', body({}, { lostRep: '1' })],
  ])('rejects %s', (_label, value) => {
    expect(problemOf(value)).toEqual(expect.any(String));
  });

  it('rejects a ban id listed twice', () => {
    const twice = body();
    twice.bans = [...(twice.bans as unknown[]), ...(twice.bans as unknown[])];
    expect(problemOf(twice)).toMatch(/twice/);
  });
});

describe(retryAfterMs.name, () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delta-seconds and HTTP dates, capped and never negative', () => {
    expect(retryAfterMs('1', now, 60_000, 5_000)).toBe(1_000);
    expect(retryAfterMs(' 30 ', now, 60_000, 5_000)).toBe(30_000);
    expect(retryAfterMs('3600', now, 60_000, 5_000)).toBe(60_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now, 60_000, 5_000)).toBe(10_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now, 60_000, 5_000)).toBe(0);
  });

  it('falls back when the header is missing or unreadable', () => {
    expect(retryAfterMs(null, now, 60_000, 5_000)).toBe(5_000);
    expect(retryAfterMs('soon', now, 60_000, 5_000)).toBe(5_000);
    expect(retryAfterMs('-1', now, 60_000, 5_000)).toBe(5_000);
  });
});

describe(backoffMs.name, () => {
  it('doubles per attempt and jitters within the upper half', () => {
    expect(backoffMs(0, 400, () => 0)).toBe(200);
    expect(backoffMs(0, 400, () => 1)).toBe(400);
    expect(backoffMs(2, 400, () => 0.5)).toBe(1200);
  });
});
