// Prints one plain closing line ("jest: N passed, N failed, N skipped") that CI reads, and before it how many tests
// ran on OpenSearch (a test whose file or describe names OpenSearch: the engine conformance cases on the run's node,
// the contract peer over HTTP and the 3-node cluster test).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const os = { passed: 0, failed: 0, skipped: 0 };
    for (const file of results.testResults) {
      const inFile = /opensearch/i.test(file.testFilePath);
      for (const t of file.testResults) {
        if (!inFile && !t.ancestorTitles.some((a) => /opensearch/i.test(a))) continue;
        if (t.status === 'passed') os.passed++;
        else if (t.status === 'failed') os.failed++;
        else os.skipped++;
      }
    }
    process.stdout.write(
      `\nOpenSearch: ${os.passed + os.failed} tests ran on a live node or cluster (${os.passed} passed, ` +
        `${os.failed} failed), ${os.skipped} skipped\n`,
    );
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
