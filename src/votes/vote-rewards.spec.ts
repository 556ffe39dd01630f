import { chatColourRank, titleText } from './vote-rewards';

describe('chatColourRank', () => {
  it.each([
    [0, 0],
    [-3, 0],
    [1, 1],
    [5, 1],
    [6, 2],
    [19, 2],
    [20, 3],
    [33, 3],
    [34, 4],
    [146, 12],
    [159, 12],
    [160, 13],
    [5000, 13],
  ])('%i votes give rank %i', (votes, rank) => {
    expect(chatColourRank(votes)).toBe(rank);
  });
});

describe('titleText', () => {
  const words = ['the New Generation', '- Super', 'Hyper', 'Ultra'];

  it.each([
    [0, null],
    [19, null],
    [20, 'VIP'],
    [23, 'VIP'],
    [24, 'the New Generation VIP'],
    [27, 'the New Generation VIP'],
    [28, 'the New Generation - Super VIP'],
    [36, 'the New Generation - Super Hyper Ultra VIP'],
    [40, 'the New Generation - Super Hyper Ultra VIP'],
    [4000, 'the New Generation - Super Hyper Ultra VIP'],
  ])('%i votes without a login text: %p', (votes, text) => {
    expect(titleText(votes, words, null)).toBe(text);
  });

  it('puts the login text before VIP', () => {
    expect(titleText(20, words, 'Builder')).toBe('Builder VIP');
    expect(titleText(28, words, 'Builder')).toBe('the New Generation - Super Builder VIP');
  });

  it('gives no title below 20 votes even with a login text', () => {
    expect(titleText(19, words, 'Builder')).toBeNull();
  });

  it('treats an empty or blank login text as none', () => {
    expect(titleText(20, words, '')).toBe('VIP');
    expect(titleText(20, words, '   ')).toBe('VIP');
  });

  it('works with no title words', () => {
    expect(titleText(100, [], null)).toBe('VIP');
  });
});
