/**
 * What the user is told about a file's expiry ahead of time: whether it ever expires, when, and
 * whether that is close enough to flag. Pure, so the rule is tested in plain Node and the tree,
 * its tooltip and the file decorations all show the same answer.
 */
import { DAY_MS, expiresAt, type FileUse } from './expiry';

/** Share of the expiry window, counted back from the expiry date, in which a file is flagged. */
export const NEAR_EXPIRY_SHARE = 0.1;
/**
 * Never flag earlier than this: with a long window (a year) a tenth would be weeks of a badge
 * that means nothing yet.
 */
export const NEAR_EXPIRY_MAX_MS = 14 * DAY_MS;
/**
 * Never flag later than this: with a short window (a week) a tenth is hours, shorter than the
 * daily re-check, so a file could go without ever having shown its badge.
 */
export const NEAR_EXPIRY_MIN_MS = DAY_MS;

export type ExpiryOutlook =
  /** The file is pinned, expiry is off (0 days), or the file is one that is always kept (the checklist files). */
  | { kind: 'never'; why: 'off' | 'pinned' | 'kept' }
  /** `at`: when it expires unless used (ms since the epoch); `near`: within the warning window (or overdue). */
  | { kind: 'expires'; at: number; near: boolean };

/** How long before its expiry a file of a `days` window is flagged. */
export function nearExpiryWindowMs(days: number): number {
  return Math.min(NEAR_EXPIRY_MAX_MS, Math.max(NEAR_EXPIRY_MIN_MS, days * DAY_MS * NEAR_EXPIRY_SHARE));
}

/** The outlook of one file at `now` under a `days` window; `keep` lists the files that never expire. */
export function expiryOutlook(use: FileUse, days: number, keep: readonly string[], now: number): ExpiryOutlook {
  if (use.pinned) return { kind: 'never', why: 'pinned' };
  if (!(days > 0)) return { kind: 'never', why: 'off' };
  const at = expiresAt(use, days, keep);
  if (at === undefined) return { kind: 'never', why: 'kept' };
  return { kind: 'expires', at, near: at - now <= nearExpiryWindowMs(days) };
}
