import { ImportReport, MAX_PROBLEMS_PER_TABLE } from './import-report';

describe(ImportReport.name, () => {
  it('keeps read = imported + unchanged + skipped, and a skip is a problem', () => {
    const report = new ImportReport(false);
    report.count('login', 'imported', 3);
    report.count('login', 'unchanged');
    report.skip('login', 7, 'uuid is not a uuid');
    expect(report.toJSON()).toEqual({
      dryRun: false,
      tables: { login: { read: 5, imported: 3, unchanged: 1, skipped: 1 } },
      problems: [{ table: 'login', id: 7, reason: 'uuid is not a uuid' }],
      requests: [],
    });
  });

  it('lists at most MAX_PROBLEMS_PER_TABLE problems of a table and counts the rest', () => {
    const report = new ImportReport(true);
    for (let id = 0; id < MAX_PROBLEMS_PER_TABLE + 5; id += 1) {
      report.skip('login', id, 'unreadable');
    }
    const json = report.toJSON();
    expect(json.problems).toHaveLength(MAX_PROBLEMS_PER_TABLE + 1);
    expect(json.problems[MAX_PROBLEMS_PER_TABLE]).toEqual({ table: 'login', id: null, reason: '5 more problems in this table are not listed' });
    expect(json.tables.login.skipped).toBe(MAX_PROBLEMS_PER_TABLE + 5);
  });

  it('says the same in words', () => {
    const report = new ImportReport(true);
    report.count('cities', 'imported');
    report.mapRequest('cities_new_waiting', 3, 41);
    expect(report.toText()).toBe(
      ['Dry run: nothing was written. A real run would do this:', '  cities: 1 read, 1 imported, 0 unchanged, 0 skipped', 'Requests (original table #id -> request id here):', '  cities_new_waiting #3 -> 41'].join(
        '\n',
      ),
    );
  });
});
