// The fake ban-list upstream lives in src/ (one implementation for the tests, the docs' runs and
// `cli banlist:fake-upstream`); the tests keep importing it from here.
export * from '../../src/banlist-sync/fake-upstream';
