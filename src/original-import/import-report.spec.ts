import { ImportReport, MAX_PROBLEMS_PER_TABLE } from './import-report';

describe(ImportReport.name, () => {
  it('keeps read = imported + unchanged + skipped and skipped = excluded + problems; a skip is a listed problem', () => {
    const report = new ImportReport(false);
    report.sourceRows('login', 7);
    report.count('login', 'imported', 3);
    report.count('login', 'unchanged');
    report.count('login', 'excluded', 2);
    report.skip('login', 7, 'uuid is not a uuid');
    report.reconcile();
    expect(report.toJSON()).toEqual({
      dryRun: false,
      tables: { login: { sourceRows: 7, read: 7, imported: 3, unchanged: 1, skipped: 3, excluded: 2, problems: 1 } },
      problems: [{ table: 'login', id: 7, reason: 'uuid is not a uuid', skipped: true }],
      requests: [],
      renumbered: [],
    });
  });

  it('lists a table whose rows read differ from the source count as a problem', () => {
    const report = new ImportReport(false);
    report.sourceRows('login', 8000);
    report.count('login', 'imported', 5000);
    report.reconcile();
    expect(report.toJSON().problems).toEqual([{ table: 'login', id: null, reason: expect.stringMatching(/read 5000 rows but the source counts 8000/), skipped: false }]);
  });

  it('tells every problem to its listener, also past the cap', () => {
    const seen: unknown[] = [];
    const report = new ImportReport(false, (problem) => seen.push(problem));
    for (let id = 0; id < MAX_PROBLEMS_PER_TABLE + 5; id += 1) {
      report.skip('login', id, 'unreadable');
    }
    expect(seen).toHaveLength(MAX_PROBLEMS_PER_TABLE + 5);
  });

  it('lists at most MAX_PROBLEMS_PER_TABLE problems of a table and counts the rest', () => {
    const report = new ImportReport(true);
    for (let id = 0; id < MAX_PROBLEMS_PER_TABLE + 5; id += 1) {
      report.skip('login', id, 'unreadable');
    }
    const json = report.toJSON();
    expect(json.problems).toHaveLength(MAX_PROBLEMS_PER_TABLE + 1);
    expect(json.problems[MAX_PROBLEMS_PER_TABLE]).toEqual({ table: 'login', id: null, reason: '5 more problems in this table are not listed (--report FILE lists them all)', skipped: false });
    expect(json.tables.login.skipped).toBe(MAX_PROBLEMS_PER_TABLE + 5);
  });

  it('says the same in words', () => {
    const report = new ImportReport(true);
    report.sourceRows('cities', 2);
    report.count('cities', 'imported');
    report.skip('cities', 9, 'name is missing');
    report.renumber('cities', -5, 21);
    report.mapRequest('cities_new_waiting', 3, 41);
    expect(report.toText()).toBe(
      [
        'Dry run: nothing was written. A real run would do this:',
        '  cities: 2 read of 2, 1 imported, 0 unchanged, 1 skipped (0 by rule, 1 problems)',
        'Problems (1):',
        '  cities #9: skipped: name is missing',
        'New ids (original table #id -> id here):',
        '  cities #-5 -> 21',
        'Requests (original table #id -> request id here):',
        '  cities_new_waiting #3 -> 41',
      ].join('\n'),
    );
  });
});
