/**
 * The community's vote rewards, as the players site shows them (docs/game-server.md, "Votes";
 * spec: original-sites.md 2.1). Pure: no Nest, no database.
 */

/** The highest chat-colour rank. */
export const MAX_CHAT_COLOUR_RANK = 13;

/** Votes at which the title starts, and at which title words start being added. */
const VIP_FROM = 20;
const WORDS_FROM = 24;

/**
 * The chat-colour rank (0-13) earned by the votes on the second vote site: none for no votes,
 * 1 for 1-5, then one more every 14 votes from 6, and the top rank from 160 on.
 */
export function chatColourRank(votes: number): number {
  if (votes <= 0) {
    return 0;
  }
  if (votes <= 5) {
    return 1;
  }
  if (votes >= 160) {
    return MAX_CHAT_COLOUR_RANK;
  }
  return Math.floor((votes - 6) / 14) + 2;
}

/**
 * The join-message title earned by the votes on the first vote site: null below 20 votes; else
 * the first `floor(votes / 4) - 5` title words (none below 24 votes, all of them once that passes
 * the list's length), then the player's own login text when set, then `VIP`, separated by single
 * spaces.
 */
export function titleText(votes: number, titleWords: readonly string[], loginText: string | null): string | null {
  if (votes < VIP_FROM) {
    return null;
  }
  const wordCount = votes < WORDS_FROM ? 0 : Math.floor(votes / 4) - 5;
  const login = loginText?.trim() ?? '';
  const parts = [...titleWords.slice(0, Math.max(0, wordCount)), ...(login === '' ? [] : [login]), 'VIP'];
  return parts.map((part) => part.trim()).filter((part) => part !== '').join(' ');
}
