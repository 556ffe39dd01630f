import type { CurrentLoginText } from './login-texts.repository';
import { normaliseLoginText, textsAfterImport, textsAfterReports } from './login-text-changes';

const at = (iso: string): Date => new Date(iso);

describe('normaliseLoginText', () => {
  it('trims, and treats empty as none', () => {
    expect(normaliseLoginText('  Builder ')).toBe('Builder');
    expect(normaliseLoginText('   ')).toBeNull();
    expect(normaliseLoginText(null)).toBeNull();
  });
});

describe('textsAfterReports', () => {
  it('takes the latest report per player, over an older report or an imported text, never over a newer one', () => {
    const current = new Map<string, CurrentLoginText>([
      ['b', { uuid: 'b', text: 'old', origin: 'game-server', reportedAt: at('2024-05-01T00:00:00Z') }],
      ['c', { uuid: 'c', text: 'imported', origin: 'original', reportedAt: null }],
    ]);
    const result = textsAfterReports(current, [
      { id: '1', uuid: 'a', text: 'one', at: at('2024-01-01T00:00:00Z') },
      { id: '2', uuid: 'a', text: 'two', at: at('2024-02-01T00:00:00Z') },
      { id: '3', uuid: 'b', text: 'older', at: at('2024-04-01T00:00:00Z') },
      { id: '4', uuid: 'c', text: ' ', at: at('2020-01-01T00:00:00Z') },
    ]);
    expect(result).toEqual([
      { uuid: 'a', text: 'two', origin: 'game-server', reportedAt: at('2024-02-01T00:00:00Z') },
      { uuid: 'c', text: null, origin: 'game-server', reportedAt: at('2020-01-01T00:00:00Z') },
    ]);
  });
});

describe('textsAfterImport', () => {
  it('replaces nothing the game server reported, and leaves unchanged imports out', () => {
    const current = new Map<string, CurrentLoginText>([
      ['a', { uuid: 'a', text: 'reported', origin: 'game-server', reportedAt: at('2024-05-01T00:00:00Z') }],
      ['b', { uuid: 'b', text: 'same', origin: 'original', reportedAt: null }],
      ['c', { uuid: 'c', text: 'before', origin: 'original', reportedAt: null }],
    ]);
    expect(
      textsAfterImport(current, [
        { uuid: 'a', text: 'imported' },
        { uuid: 'b', text: 'same' },
        { uuid: 'c', text: 'after' },
        { uuid: 'd', text: 'new' },
      ]),
    ).toEqual([
      { uuid: 'c', text: 'after', origin: 'original', reportedAt: null },
      { uuid: 'd', text: 'new', origin: 'original', reportedAt: null },
    ]);
  });
});
