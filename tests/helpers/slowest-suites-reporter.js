/**
 * A Jest reporter that prints the ten slowest test files of the run with their durations, so a
 * slow landing says which suites its time went to (the default reporter shows no totals per file).
 */
class SlowestSuitesReporter {
  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((r) => ({ file: r.testFilePath.replace(`${process.cwd()}/`, ''), ms: r.perfStats.end - r.perfStats.start }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (!suites.length) return;
    const total = results.testResults.reduce((sum, r) => sum + (r.perfStats.end - r.perfStats.start), 0);
    const lines = suites.map((s) => `  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.file}`);
    process.stdout.write(
      `\nSlowest ${suites.length} test files (of ${results.testResults.length}; ${(total / 1000).toFixed(0)} s summed over workers):\n${lines.join('\n')}\n`,
    );
  }
}
module.exports = SlowestSuitesReporter;
