// The runners' result plumbing: the marker the extension host prints, the summary line CI parses,
// and which integration pass a test file belongs to.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { passOf, testFilesFor } from '../../integration/index';
import { parseResultMarker, resultMarker, summaryLine } from '../../runners/summary';

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
});
