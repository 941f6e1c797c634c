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
};
