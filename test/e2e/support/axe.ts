/**
 * The accessibility audit of a webview with axe-core (WCAG 2.1 A and AA rules), injected into the
 * webview's own frame. Evaluated through the browser's debugging protocol, so the webview's CSP
 * (scripts only with its nonce) does not stop it, and nothing of axe ships with the extension.
 */
import * as fs from 'fs';
import type { Frame, Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** Each offending element: its selector and axe's summary of what is wrong. */
  nodes: string[];
}

const AXE_SOURCE = (): string => fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The content frame of the `nth` webview (iframe.webview → iframe#active-frame). */
export async function webviewContentFrame(page: Page, nth = 0): Promise<Frame> {
  const outer = await page.locator('iframe.webview.ready').nth(nth).elementHandle();
  const outerFrame = await outer?.contentFrame();
  const inner = await outerFrame?.locator('iframe#active-frame').elementHandle();
  const frame = await inner?.contentFrame();
  if (!frame) throw new Error('no webview content frame');
  return frame;
}

/** Runs axe-core's WCAG 2.1 A/AA rules on the webview; returns the violations of `impacts` (default serious and critical). */
export async function auditWebview(page: Page, nth = 0, impacts: readonly string[] = ['serious', 'critical']): Promise<AxeViolation[]> {
  const frame = await webviewContentFrame(page, nth);
  const loaded = await frame.evaluate('typeof window.axe');
  if (loaded !== 'object') await frame.evaluate(`${AXE_SOURCE()}\n;undefined`);
  const violations = (await frame.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) })))`)) as AxeViolation[];
  return violations.filter((v) => impacts.includes(v.impact ?? ''));
}

/** A readable list of violations for an assertion's message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 5).map((n) => `    ${n}`).join('\n')}`).join('\n');
}

/** Fails with a readable list when axe-core finds a serious or critical WCAG 2.1 A/AA violation in the webview. */
export async function assertAccessible(page: Page, when: string): Promise<void> {
  const violations = await auditWebview(page);
  if (violations.length > 0) throw new Error(`axe-core (WCAG 2.1 A/AA), ${when}:\n${describeViolations(violations)}`);
}
