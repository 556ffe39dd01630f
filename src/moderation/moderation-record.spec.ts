import { detailOf, fromCommunityBan, fromPunishment, summaryOf } from './moderation-record';

describe('moderation record', () => {
  const issuedAt = new Date('2026-11-01T00:00:00Z');
  const punishment = {
    id: 7,
    kind: 'chatjail' as const,
    uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
    mcid: 'OldName',
    reason: 'spam',
    testment: null,
    active: false,
    issuedBy: 'CONSOLE',
    issuedAt,
    liftedAt: new Date('2026-11-02T00:00:00Z'),
    liftedBy: 'apikey:ops',
    liftReason: 'appeal',
    liftConfirmedAt: null,
    updatedAt: new Date('2026-11-02T00:00:01Z'),
  };

  it('names a punishment by its record kind and shows the current game id, else the one on the record', () => {
    const record = fromPunishment(punishment);
    expect(record.ref).toEqual({ kind: 'chatban', id: '7' });
    expect(summaryOf(record, 'Notch', 2, true)).toEqual({
      kind: 'chatban',
      id: '7',
      player: { uuid: punishment.uuid, mcid: 'Notch' },
      reason: 'spam',
      issuedBy: 'CONSOLE',
      issuedAt: '2026-11-01T00:00:00.000Z',
      active: false,
      liftedAt: '2026-11-02T00:00:00.000Z',
      evidenceCount: 2,
      hasNote: true,
    });
    expect(summaryOf(record, undefined, 0, false).player.mcid).toBe('OldName');
    expect(detailOf(summaryOf(record, null, 0, false), record)).toMatchObject({ liftedBy: 'apikey:ops', liftReason: 'appeal', updatedAt: '2026-11-02T00:00:01.000Z' });
  });

  it('shows a community ban as gban or lban, with no lift time', () => {
    const record = fromCommunityBan({ banId: 90001, uuid: punishment.uuid, type: 'local', mcid: 'Upstream', reason: 'x', bannedBy: null, bannedAt: issuedAt, active: false, origin: 'original', updatedAt: issuedAt });
    expect(record.ref).toEqual({ kind: 'lban', id: '90001' });
    expect(summaryOf(record, null, 0, false)).toMatchObject({ player: { uuid: punishment.uuid, mcid: 'Upstream' }, issuedBy: null, active: false, liftedAt: null });
  });
});
