import { MESSAGES, type MessageKey } from '../../console/src/messages';

/**
 * The console's words (console/src/messages.ts). The type check already fails on a key missing from
 * one language; these check what it cannot see: a translation that drops or renames a
 * `{placeholder}` (the console would show a gap where the name belongs), and an empty message.
 */
function placeholders(message: string): string {
  return [...message.matchAll(/\{(\w+)\}/g)]
    .map((match) => match[1])
    .sort()
    .join(',');
}

const keys = Object.keys(MESSAGES.en) as MessageKey[];

describe('console messages', () => {
  it('has the same keys in both languages', () => {
    expect(Object.keys(MESSAGES.ja).sort()).toEqual([...keys].sort());
  });

  it('names the same placeholders in Japanese as in English', () => {
    const differing = keys.filter((key) => placeholders(MESSAGES.ja[key]) !== placeholders(MESSAGES.en[key]));
    expect(differing).toEqual([]);
  });

  it('says something in both languages', () => {
    const empty = keys.filter((key) => !MESSAGES.en[key].trim() || !MESSAGES.ja[key].trim());
    expect(empty).toEqual([]);
  });
});
