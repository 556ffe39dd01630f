import { countLevelDeltas, tallyVotes, totalsAfterImport, totalsAfterVotes } from './vote-batch';
import { firstOfEachId } from './sender-ids';

describe('tallyVotes', () => {
  it('counts votes per player and site, keeping the latest time, in (player, site) order', () => {
    const at = (iso: string): Date => new Date(iso);
    const tallies = tallyVotes([
      { id: '1', uuid: 'b', site: 'x.jp', votedAt: at('2024-01-01T00:00:00Z') },
      { id: '2', uuid: 'a', site: 'y.net', votedAt: at('2024-01-02T00:00:00Z') },
      { id: '3', uuid: 'b', site: 'x.jp', votedAt: at('2024-01-03T00:00:00Z') },
      { id: '4', uuid: 'b', site: 'x.jp', votedAt: at('2023-01-03T00:00:00Z') },
      { id: '5', uuid: 'a', site: 'x.jp', votedAt: at('2024-01-04T00:00:00Z') },
    ]);
    expect(tallies).toEqual([
      { uuid: 'a', site: 'x.jp', added: 1, lastVotedAt: at('2024-01-04T00:00:00Z') },
      { uuid: 'a', site: 'y.net', added: 1, lastVotedAt: at('2024-01-02T00:00:00Z') },
      { uuid: 'b', site: 'x.jp', added: 3, lastVotedAt: at('2024-01-03T00:00:00Z') },
    ]);
  });
});

describe('countLevelDeltas', () => {
  it('moves each player from the old count to the new one, leaving zero counts out', () => {
    expect(
      countLevelDeltas([
        { site: 's', before: 0, after: 2 },
        { site: 's', before: 2, after: 5 },
        { site: 't', before: 3, after: 3 },
        { site: 'r', before: 7, after: 0 },
      ]),
    ).toEqual([
      { site: 'r', voteCount: 7, delta: -1 },
      { site: 's', voteCount: 5, delta: 1 },
    ]);
  });

  it('keeps several players moving to the same count together', () => {
    expect(
      countLevelDeltas([
        { site: 's', before: 1, after: 2 },
        { site: 's', before: 1, after: 2 },
        { site: 's', before: 0, after: 1 },
      ]),
    ).toEqual([
      { site: 's', voteCount: 1, delta: -1 },
      { site: 's', voteCount: 2, delta: 2 },
    ]);
  });
});

describe('firstOfEachId', () => {
  it('keeps the first item of each id and counts the rest', () => {
    expect(firstOfEachId([{ id: 'a', n: 1 }, { id: 'b', n: 2 }, { id: 'a', n: 3 }])).toEqual({ unique: [{ id: 'a', n: 1 }, { id: 'b', n: 2 }], repeats: 1 });
  });
});

describe('totalsAfterVotes and totalsAfterImport', () => {
  const at = (iso: string): Date => new Date(iso);
  const stored = [{ uuid: 'a', site: 's', importedCount: 10, recordedCount: 2, voteCount: 12, lastVotedAt: at('2024-01-01T00:00:00Z') }];

  it('adds recorded votes to the imported part', () => {
    const { totals, changes } = totalsAfterVotes(stored, [
      { uuid: 'a', site: 's', added: 3, lastVotedAt: at('2023-01-01T00:00:00Z') },
      { uuid: 'b', site: 's', added: 1, lastVotedAt: at('2024-02-01T00:00:00Z') },
    ]);
    expect(totals).toEqual([
      { uuid: 'a', site: 's', importedCount: 10, recordedCount: 5, voteCount: 15, lastVotedAt: at('2024-01-01T00:00:00Z') },
      { uuid: 'b', site: 's', importedCount: 0, recordedCount: 1, voteCount: 1, lastVotedAt: at('2024-02-01T00:00:00Z') },
    ]);
    expect(changes).toEqual([
      { site: 's', before: 12, after: 15 },
      { site: 's', before: 0, after: 1 },
    ]);
  });

  it('replaces the imported part on a rerun, keeps recorded votes, and leaves unchanged totals out', () => {
    const { totals, changes } = totalsAfterImport(stored, [
      { uuid: 'a', site: 's', count: 7, lastVotedAt: null },
      { uuid: 'c', site: 's', count: 0, lastVotedAt: null },
    ]);
    expect(totals).toEqual([
      { uuid: 'a', site: 's', importedCount: 7, recordedCount: 2, voteCount: 9, lastVotedAt: at('2024-01-01T00:00:00Z') },
      { uuid: 'c', site: 's', importedCount: 0, recordedCount: 0, voteCount: 0, lastVotedAt: null },
    ]);
    expect(changes).toEqual([
      { site: 's', before: 12, after: 9 },
      { site: 's', before: 0, after: 0 },
    ]);
    expect(totalsAfterImport(stored, [{ uuid: 'a', site: 's', count: 10, lastVotedAt: at('2023-01-01T00:00:00Z') }]).totals).toEqual([]);
  });
});
