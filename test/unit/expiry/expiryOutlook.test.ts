/** When a memory file counts as close to expiry, and what the tree and the notification say about it. */
import * as assert from 'node:assert/strict';
import { DAY_MS, DEFAULT_EXPIRY_DAYS, type FileUse } from '../../../src/core/memory/history/expiry';
import { expiryOutlook, nearExpiryWindowMs } from '../../../src/core/memory/history/expiryOutlook';
import { NEVER_EXPIRING_FILES } from '../../../src/core/session/memoryFiles';
import { expiredMessage, expiredToast, expiryLine, formatExpiryDate } from '../../../src/features/expiry/expiryWords';

const now = Date.UTC(2026, 10, 30, 12, 0, 0);
const use = (rel: string, idleDays: number, pinned = false): FileUse => ({ rel, lastUsed: now - idleDays * DAY_MS, pinned });

describe('expiry outlook: the near-expiry rule', () => {
  it('flags the last tenth of the window, at most 14 days and at least one day ahead', () => {
    assert.equal(nearExpiryWindowMs(90), 9 * DAY_MS);
    assert.equal(nearExpiryWindowMs(30), 3 * DAY_MS);
    assert.equal(nearExpiryWindowMs(365), 14 * DAY_MS, 'a year would flag 36 days ahead');
    assert.equal(nearExpiryWindowMs(7), DAY_MS, 'a week would flag only 17 hours ahead, less than the daily re-check');
    assert.equal(nearExpiryWindowMs(1), DAY_MS);
  });

  it('a 90-day file is near from day 81 on, not before; the date is last use + 90 days', () => {
    assert.equal(DEFAULT_EXPIRY_DAYS, 90);
    assert.deepEqual(expiryOutlook(use('a.md', 80), 90, [], now), { kind: 'expires', at: now + 10 * DAY_MS, near: false });
    assert.deepEqual(expiryOutlook(use('a.md', 81), 90, [], now), { kind: 'expires', at: now + 9 * DAY_MS, near: true });
    assert.deepEqual(expiryOutlook(use('a.md', 89.5), 90, [], now), { kind: 'expires', at: now + DAY_MS / 2, near: true });
    // Overdue (the sweep has not run yet): still flagged.
    assert.deepEqual(expiryOutlook(use('a.md', 120), 90, [], now), { kind: 'expires', at: now - 30 * DAY_MS, near: true });
  });

  it('pinned files, the checklist files and everything while expiry is off never expire', () => {
    assert.deepEqual(expiryOutlook(use('a.md', 200, true), 90, [], now), { kind: 'never', why: 'pinned' });
    assert.deepEqual(expiryOutlook(use('a.md', 200, true), 0, [], now), { kind: 'never', why: 'pinned' }, 'a pin shows even while expiry is off');
    for (const rel of ['progress.md', 'features.json', 'startup.md']) {
      assert.ok(NEVER_EXPIRING_FILES.includes(rel), rel);
      assert.deepEqual(expiryOutlook(use(rel, 200), 90, NEVER_EXPIRING_FILES, now), { kind: 'never', why: 'kept' });
    }
    // Only at the store's root: a progress.md in a sub-folder is an ordinary note.
    assert.equal(expiryOutlook(use('old/progress.md', 200), 90, NEVER_EXPIRING_FILES, now).kind, 'expires');
    assert.deepEqual(expiryOutlook(use('a.md', 200), 0, [], now), { kind: 'never', why: 'off' });
  });
});

describe('expiry words', () => {
  it('dates read "12 Jan 2027"; tooltips say what keeps a file', () => {
    const at = new Date(2027, 0, 12, 15, 0, 0).getTime();
    assert.equal(formatExpiryDate(at), '12 Jan 2027');
    assert.equal(expiryLine({ kind: 'expires', at, near: true }), 'Expires on 12 Jan 2027 unless Claude uses it or you pin it');
    assert.equal(expiryLine({ kind: 'never', why: 'pinned' }), 'Pinned: never expires');
    assert.match(expiryLine({ kind: 'never', why: 'kept' }) ?? '', /^Never expires/);
    assert.equal(expiryLine({ kind: 'never', why: 'off' }), undefined);
  });

  it('the notification counts memories and days', () => {
    assert.equal(expiredMessage(3, 90), '3 memories expired (unused for 90 days)');
    assert.equal(expiredMessage(1, 1), '1 memory expired (unused for 1 day)');
    // The toast names the files: up to three, then how many more.
    assert.equal(expiredToast(1, 90, ['old.md']), '1 memory expired (unused for 90 days): old.md');
    assert.equal(expiredToast(5, 90, ['a.md', 'b/c.md', 'd.md', 'e.md', 'f.md']), '5 memories expired (unused for 90 days): a.md, b/c.md, d.md and 2 more');
    assert.equal(expiredToast(2, 90, []), '2 memories expired (unused for 90 days)');
  });
});
