/** Words for memory expiry in the tree, its decorations and notifications. Pure, tested in plain Node. */
import type { ExpiryOutlook } from '../../core/memory/history/expiryOutlook';

/**
 * The badge of a file close to expiry (a FileDecoration badge holds at most two characters).
 * Not ⌛: without an emoji font (common on Linux) it shows as an empty box; ⚠ is in the usual
 * text fonts (DejaVu Sans, Segoe UI Symbol, Apple Symbols).
 */
export const NEAR_EXPIRY_BADGE = '⚠';

/** Words in a pinned file's tree description, next to its pin icon. */
export const PINNED_DESCRIPTION = 'pinned';

/** "12 Jan 2027", in the local time zone. */
export function formatExpiryDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** One line for a memory file's tooltip about its expiry (none while expiry is off). */
export function expiryLine(outlook: ExpiryOutlook): string | undefined {
  if (outlook.kind === 'expires') return `Expires on ${formatExpiryDate(outlook.at)} unless Claude uses it or you pin it`;
  switch (outlook.why) {
    case 'pinned':
      return 'Pinned: never expires';
    case 'kept':
      return 'Never expires: a checklist file of the multi-session routine';
    case 'off':
      return undefined;
  }
}

/** "3 memories expired (unused for 90 days)". */
export function expiredMessage(count: number, days: number): string {
  return `${count} ${count === 1 ? 'memory' : 'memories'} expired (unused for ${days} ${days === 1 ? 'day' : 'days'})`;
}

/**
 * The toast after a sweep names what went: "3 memories expired (unused for 90 days): a.md,
 * notes/b.md, c.md", more than three as "…, c.md and 2 more".
 */
export function expiredToast(count: number, days: number, paths: readonly string[]): string {
  const head = expiredMessage(count, days);
  if (paths.length === 0) return head;
  const shown = paths.slice(0, 3);
  const more = count - shown.length;
  return `${head}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
