import { resolveUserQuery } from './user-query';

const uuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

describe(resolveUserQuery.name, () => {
  it('reads the path as a uuid, then a chat id, then a game id', () => {
    expect(resolveUserQuery({ identifier: uuid.toUpperCase() })).toEqual({ ok: true, identifier: { kind: 'uuid', value: uuid } });
    expect(resolveUserQuery({ identifier: '123456789012345678' })).toEqual({ ok: true, identifier: { kind: 'chatid', value: '123456789012345678' } });
    expect(resolveUserQuery({ identifier: '1234567890123456' })).toEqual({ ok: true, identifier: { kind: 'mcid', value: '1234567890123456' } });
    expect(resolveUserQuery({ identifier: 'Notch' })).toEqual({ ok: true, identifier: { kind: 'mcid', value: 'Notch' } });
  });

  it('rejects a path that fits no pattern, and no identifier at all', () => {
    expect(resolveUserQuery({ identifier: 'no-such-thing' })).toMatchObject({ ok: false, field: 'identifier' });
    expect(resolveUserQuery({ identifier: '1'.repeat(21) })).toMatchObject({ ok: false });
    expect(resolveUserQuery({})).toMatchObject({ ok: false, field: 'uuid' });
  });

  it('lets the query win over the path, uuid over chatid over mcid', () => {
    expect(resolveUserQuery({ identifier: 'Notch', mcid: 'jeb_' })).toEqual({ ok: true, identifier: { kind: 'mcid', value: 'jeb_' } });
    expect(resolveUserQuery({ mcid: 'jeb_', chatid: '123456789012345678' })).toMatchObject({ identifier: { kind: 'chatid' } });
    expect(resolveUserQuery({ mcid: 'jeb_', chatid: '123456789012345678', uuid })).toMatchObject({ identifier: { kind: 'uuid' } });
    expect(resolveUserQuery({ identifier: '@@@', uuid })).toMatchObject({ ok: true });
  });

  it('validates the winning query parameter', () => {
    expect(resolveUserQuery({ uuid: 'x', mcid: 'Notch' })).toMatchObject({ ok: false, field: 'uuid' });
    expect(resolveUserQuery({ chatid: '12' })).toMatchObject({ ok: false, field: 'chatid' });
    expect(resolveUserQuery({ mcid: 'far_too_long_game_id' })).toMatchObject({ ok: false, field: 'mcid' });
  });
});
