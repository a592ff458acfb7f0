import { describe, expect, it } from '@jest/globals';
import { SourceDigest } from '../source-digest';
import type { ImportRunEntity } from './import-run.entity';
import { emptySummary } from '../import-summary';
import { crashedReadingOf, failuresAfter, runEndOf, unchangedSourceRefusal } from './run-failures';

const clean = { failedRuns: 0, suspendedReason: null, suspendedUtc: null };
const now = '2031-05-01 10:00:00';

function run(fields: Partial<ImportRunEntity>): ImportRunEntity {
  return { id: 7, crashed: false, sourceDigest: null, report: '{}', ...fields } as ImportRunEntity;
}

describe('failuresAfter', () => {
  it('counts whole-run failures and suspends at the setting, naming the last reason', () => {
    let sub = failuresAfter(clean, { kind: 'failed', reason: 'answered 404' }, 3, now);
    expect(sub).toEqual({ failedRuns: 1, suspendedReason: null, suspendedUtc: null });
    sub = failuresAfter(sub, { kind: 'failed', reason: 'answered 404' }, 3, now);
    sub = failuresAfter(sub, { kind: 'failed', reason: 'answered 500' }, 3, now);
    expect(sub).toEqual({
      failedRuns: 3,
      suspendedReason: 'suspended after 3 failed runs in a row; the last: answered 500',
      suspendedUtc: now,
    });
    // Already suspended: the count goes on, the first reason and time stay.
    expect(failuresAfter(sub, { kind: 'failed', reason: 'x' }, 3, '2031-06-01 00:00:00')).toEqual({
      ...sub,
      failedRuns: 4,
    });
  });

  it('never suspends with 0, and keeps the reason within its column', () => {
    expect(
      failuresAfter({ ...clean, failedRuns: 99 }, { kind: 'failed', reason: 'x' }, 0, now).suspendedReason,
    ).toBeNull();
    const long = failuresAfter(clean, { kind: 'failed', reason: 'y'.repeat(2000) }, 1, now);
    expect(long.suspendedReason).toHaveLength(500);
  });

  it('ends the count and lifts a suspension once a run reads its source; a cancelled run changes nothing', () => {
    const suspended = { failedRuns: 5, suspendedReason: 'suspended …', suspendedUtc: now };
    expect(failuresAfter(suspended, { kind: 'read' }, 3, now)).toEqual(clean);
    expect(failuresAfter(suspended, { kind: 'cancelled' }, 3, now)).toEqual(suspended);
  });
});

describe('runEndOf', () => {
  it('is a whole-run failure only when the source failed, with the reason given last', () => {
    const summary = emptySummary('ical:x', false);
    summary.failed.push({ id: '', reason: 'VEVENT 3: DTSTART is not a date' }, { id: 'uid-1', reason: 'bad' });
    expect(runEndOf('failed', summary)).toEqual({ kind: 'read' });
    summary.source_failed = true;
    summary.failed.push({ id: '', reason: 'answered 500' });
    expect(runEndOf('failed', summary)).toEqual({ kind: 'failed', reason: 'answered 500' });
    expect(runEndOf('cancelled', summary)).toEqual({ kind: 'cancelled' });
  });
});

describe('crashed readings', () => {
  it('are those of crashed runs that read something, with the reason of their whole-run failure', () => {
    expect(crashedReadingOf(null)).toBeNull();
    expect(crashedReadingOf(run({ crashed: false, sourceDigest: '1:ab' }))).toBeNull();
    expect(crashedReadingOf(run({ crashed: true, sourceDigest: null }))).toBeNull();
    const report = JSON.stringify({
      failed: [
        { id: 'uid-1', reason: 'bad record' },
        { id: '', reason: 'out of heap' },
      ],
    });
    expect(crashedReadingOf(run({ crashed: true, sourceDigest: '1:ab', report }))).toEqual({
      runId: 7,
      digest: '1:ab',
      reason: 'out of heap',
    });
  });

  it('name the run that first crashed along a chain of refusals', () => {
    const first = unchangedSourceRefusal({ runId: 7, digest: '1:ab', reason: 'out of heap' });
    expect(first).toMatch(/^not run again over an unchanged source: run 7 read the same and failed \(out of heap\)/);
    expect(unchangedSourceRefusal({ runId: 8, digest: '1:ab', reason: first })).toBe(first);
  });
});

describe('SourceDigest', () => {
  it('gives equal values for equal readings to the same page, and different ones otherwise', () => {
    const a = new SourceDigest();
    const b = new SourceDigest();
    expect(a.add('page one')).toBe(b.add('page one'));
    const a2 = a.add('page two');
    expect(a2).toMatch(/^2:[0-9a-f]{64}$/);
    expect(b.add('page 2')).not.toBe(a2);
    // The same bytes cut into pages differently are another reading.
    expect(new SourceDigest().add('page onepage two')).not.toBe(a2);
  });
});
