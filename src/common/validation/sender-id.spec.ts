import { SENDER_ID_PATTERN } from './sender-id';

describe('SENDER_ID_PATTERN', () => {
  it('takes 1 to 64 printable ASCII characters without spaces', () => {
    for (const id of ['a', 'x'.repeat(64), 'survival-1:2026-11-22:42', '!~']) {
      expect(SENDER_ID_PATTERN.test(id)).toBe(true);
    }
    for (const id of ['', 'x'.repeat(65), 'a b', 'é', 'tab\there', 'line\n']) {
      expect(SENDER_ID_PATTERN.test(id)).toBe(false);
    }
  });
});
