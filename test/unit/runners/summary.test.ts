// The runners' result plumbing: the marker the extension host prints, the summary line CI parses,
// and which integration pass a test file belongs to.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { passOf, testFilesFor } from '../../integration';
import { parseArgs, tally } from '../../runners/repeat';
import { outcomeLine, parseOutcomes, parseResultMarker, resultMarker, summaryLine } from '../../runners/summary';

describe('runners: summary and pass selection', () => {
  it('summary line has the exact "N passed, N failed" form', () => {
    assert.strictEqual(summaryLine('e2e', { passed: 3, failed: 1 }), 'e2e: 3 passed, 1 failed');
    assert.strictEqual(summaryLine('integration', { passed: 2, failed: 0, pending: 1 }), 'integration: 2 passed, 0 failed, 1 pending');
  });

  it('the result marker is found among other log lines and malformed ones are ignored', () => {
    const log = `noise\n  2 passing\n${resultMarker}{"passed":2,"failed":1,"pending":0}\nmore noise\n`;
    assert.deepStrictEqual(parseResultMarker(log), { passed: 2, failed: 1, pending: 0 });
    assert.strictEqual(parseResultMarker('no marker here'), undefined);
    assert.strictEqual(parseResultMarker(`${resultMarker}{"passed":"x"}`), undefined);
    assert.strictEqual(parseResultMarker(`${resultMarker}not json`), undefined);
  });

  it('file names choose the pass', () => {
    assert.strictEqual(passOf('tree.test.js'), 'default');
    assert.strictEqual(passOf('sub/tree.untrusted.test.js'), 'untrusted');
    assert.strictEqual(passOf('tree.multiroot.test.js'), 'multiroot');
  });

  it('testFilesFor lists compiled tests of one pass, recursively and sorted', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-pass-'));
    try {
      for (const f of ['b.test.js', 'a.test.js', 'x.untrusted.test.js', 'sub/c.test.js', 'm.multiroot.test.js', 'helper.js', 'a.test.js.map']) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), '');
      }
      const rel = (files: string[]) => files.map((f) => path.relative(dir, f));
      assert.deepStrictEqual(rel(testFilesFor('default', dir)), ['a.test.js', 'b.test.js', path.join('sub', 'c.test.js')]);
      assert.deepStrictEqual(rel(testFilesFor('untrusted', dir)), ['x.untrusted.test.js']);
      assert.deepStrictEqual(rel(testFilesFor('multiroot', dir)), ['m.multiroot.test.js']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('outcome lines survive log noise; test:repeat tallies failures per test across runs', () => {
    const run1 = `x ${outcomeLine({ suite: 'e2e', title: 'chat a', state: 'passed' })}\nnoise\n${outcomeLine({ suite: 'e2e', title: 'chat b', state: 'failed', error: 'timed out' })}\n@@claude-memory-test-outcome@@{broken`;
    const run2 = `${outcomeLine({ suite: 'e2e', title: 'chat a', state: 'failed', error: 'lost focus' })}\n${outcomeLine({ suite: 'e2e', title: 'chat b', state: 'failed', error: 'again' })}`;
    const outcomes = [parseOutcomes(run1), parseOutcomes(run2)];
    assert.deepStrictEqual(outcomes.map((o) => o.length), [2, 2]);
    assert.deepStrictEqual(tally(outcomes), [
      { key: 'e2e › chat b', seen: 2, failed: 2, error: 'timed out' },
      { key: 'e2e › chat a', seen: 2, failed: 1, error: 'lost focus' },
    ]);
  });

  it('test:repeat arguments: count, suites, hog; anything else is refused', () => {
    assert.deepStrictEqual(parseArgs([]), { runs: 3, suites: ['integration', 'e2e'], hog: false });
    assert.deepStrictEqual(parseArgs(['5', '--suites', 'e2e', '--hog']), { runs: 5, suites: ['e2e'], hog: true });
    assert.throws(() => parseArgs(['--suites', 'unit']), /unknown suite "unit"/);
    assert.throws(() => parseArgs(['--fast']), /unknown argument/);
    assert.throws(() => parseArgs(['0']), /at least 1/);
  });
});
