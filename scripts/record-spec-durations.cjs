#!/usr/bin/env node
// Writes test/runner/spec-durations.json (spec file name → milliseconds, longest first) from the JSON report of
// an e2e run (`npm run test:e2e -- --json --outputFile=e2e.json`). The e2e runner starts the longest specs first
// from it (test/runner/longest-first-sequencer.cjs); only the order depends on it, never a result.
const { readFileSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');

const report = process.argv[2];
if (!report) {
  process.stderr.write('usage: node scripts/record-spec-durations.cjs <jest --json report>\n');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = testResults
  .map((result) => [basename(result.name), Math.round(result.endTime - result.startTime)])
  .sort((a, b) => b[1] - a[1]);
const target = join(__dirname, '..', 'test', 'runner', 'spec-durations.json');
writeFileSync(target, `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
process.stdout.write(`${durations.length} spec files recorded in ${target}\n`);
