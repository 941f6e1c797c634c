// Tests are compiled by tsc with the sources and run as native ESM (npm test builds first).
// CDS_DIST lets a parallel build use its own output folder inside the repo.
const dist = process.env.CDS_DIST ?? 'dist';

export default {
  rootDir: '.',
  roots: [`<rootDir>/${dist}/test`],
  testMatch: ['**/*.test.js'],
  testEnvironment: 'node',
  transform: {},
  testTimeout: 60000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
  // One OpenSearch node for the run (tools/opensearch/), its URL in OPENSEARCH_URL for every worker, and the run's
  // cache of seeded releases (test/helpers/seed-cache.ts), its directory in CDS_TEST_SEED_CACHE.
  globalSetup: `<rootDir>/${dist}/test/helpers/global-setup.js`,
  globalTeardown: `<rootDir>/${dist}/test/helpers/global-teardown.js`,
};
