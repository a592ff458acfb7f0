'use strict';
// Jest runs the spec files it knows to be slow first, so the last minutes of a run are not one long file on one
// core while the others idle. Jest knows a file's time only from its own cache of an earlier run in the same
// folder; a fresh clone (every CI run) has none, and Jest then orders by file size, which put the 90 s fuzz
// run near the end. spec-durations.json is a record of one run, used where Jest's cache has nothing; refresh it
// with `npm run test:e2e -- --json --outputFile=e2e.json && node scripts/record-spec-durations.cjs e2e.json`.
// A spec missing from the record has no time and so runs first, as Jest does with any new file.
const { basename } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;
const recorded = require('./spec-durations.json');

class LongestFirstSequencer extends TestSequencer {
  time(test) {
    return super.time(test) ?? recorded[basename(test.path)];
  }
}

module.exports = LongestFirstSequencer;
