/** Screenshots of the side bar in the dark and High Contrast themes, for what a test shows in light. */
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import { screenshotsDir } from './paths';
import { UI_TIMEOUT, again } from './retry';
import { switchTheme } from './workbench';

const THEMES = [
  ['Dark Modern', 'dark', 'vscode-dark'],
  ['Dark High Contrast', 'hc', 'vscode-high-contrast'],
] as const;

/**
 * The side bar as it is now in Dark Modern and Dark High Contrast (`<name>-dark.png`,
 * `<name>-hc.png`), then back to Light Modern. `between` runs in each theme before its shot (an
 * assertion that needs the theme); the light shot is the caller's.
 */
export async function shootSideBarDarkAndHc(page: Page, chat: FrameLocator, name: string, between?: (theme: 'dark' | 'hc') => Promise<void>): Promise<void> {
  for (const [theme, suffix, kind] of THEMES) {
    await again(() => switchTheme(page, theme));
    // The webview takes the theme a moment after the workbench.
    await chat.locator(`body.${kind}`).waitFor({ timeout: UI_TIMEOUT });
    await between?.(suffix);
    await page.screenshot({ path: path.join(screenshotsDir, `${name}-${suffix}.png`), clip: (await page.locator('.part.sidebar').boundingBox())! });
  }
  await again(() => switchTheme(page, 'Light Modern'));
  await chat.locator('body.vscode-light').waitFor({ timeout: UI_TIMEOUT });
}
