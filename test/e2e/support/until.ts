import type { FrameLocator, Locator } from 'playwright-core';

/**
 * Waits until `locator` is in `state` (default visible). On timeout the error names what was
 * awaited and what was there instead (`seen()`), so a failure reads as a finding, not as
 * "Timeout 20000ms exceeded". The one waiting helper for states a test needs.
 */
export async function until(
  locator: Locator,
  what: string,
  seen: () => Promise<string>,
  options: { state?: 'visible' | 'hidden' | 'attached' | 'detached'; timeout?: number } = {},
): Promise<void> {
  try {
    await locator.waitFor({ state: options.state ?? 'visible', timeout: options.timeout ?? 30_000 });
  } catch (error) {
    const saw = await seen().catch((e: unknown) => `(could not read the page: ${String(e)})`);
    throw new Error(`timed out waiting for ${what}; instead the page showed:\n${saw}\n(${(error as Error).message.split('\n')[0]})`);
  }
}

/** What the chat webview shows: its last entries, the composer, the working line and where the focus is. */
export async function chatSeen(chat: FrameLocator): Promise<string> {
  const entries = (await chat.locator('.entry').evaluateAll((els) =>
    els.slice(-6).map((e) => `  [${e.className}] ${(e.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 100)}`),
  )) as string[];
  const state = await chat.locator('body').evaluate((body) => {
    const doc = body.ownerDocument;
    const input = doc.querySelector('#prompt') as { value?: string; disabled?: boolean } | null;
    const active = doc.activeElement as { id?: string; tagName?: string } | null;
    const shown = (id: string) => {
      const el = doc.getElementById(id) as { hidden?: boolean; textContent: string | null } | null;
      return el && !el.hidden ? (el.textContent ?? '').trim() : undefined;
    };
    return {
      composer: input?.value ?? '(no composer)',
      disabled: input?.disabled ?? false,
      focus: `${doc.hasFocus() ? 'frame focused' : 'frame not focused'}, active element ${active?.tagName ?? '-'}#${active?.id ?? ''}`,
      stop: shown('stop') !== undefined,
      working: shown('working'),
    };
  });
  return [
    `${entries.length} last entries:`,
    ...entries,
    `composer: ${JSON.stringify(state.composer)}${state.disabled ? ' (disabled)' : ''}; ${state.focus}; Stop ${state.stop ? 'shown' : 'hidden'}${state.working ? `; working: ${state.working}` : ''}`,
  ].join('\n');
}

/** `until` for something in the chat webview, reporting what the chat showed on timeout. */
export function untilChat(chat: FrameLocator, locator: Locator, what: string, options?: Parameters<typeof until>[3]): Promise<void> {
  return until(locator, what, () => chatSeen(chat), options);
}

/** For a test's teardown: stops an answer a failed test left running, so the next test starts idle. */
export async function stopAnswerLeftRunning(chat: FrameLocator): Promise<void> {
  const stop = chat.locator('#stop');
  if (!(await stop.isVisible().catch(() => false))) return;
  await stop.click();
  await untilChat(chat, stop, 'the answer left running to stop', { state: 'hidden', timeout: 10_000 });
}

/**
 * Types `text` into the chat's composer and sends it with Enter, as a person does: a click in the
 * composer first (the keyboard goes where the person looks, whatever VS Code focused last), then
 * waits until the webview took it (the composer empties) and the message is on screen (sent, or
 * queued behind a running answer). On timeout the error says which of the two did not happen.
 */
export async function sendFromComposer(chat: FrameLocator, text: string): Promise<void> {
  const input = chat.locator('#prompt');
  await untilChat(chat, input, 'the composer');
  // A command just run from the palette: VS Code gives the keyboard back to where it was when the
  // palette closes, which may come after the click below and take the typing with it.
  await input.page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  await input.click();
  await input.fill(text);
  const typed = await input.inputValue();
  if (typed !== text) throw new Error(`the composer holds ${JSON.stringify(typed)} after typing ${JSON.stringify(text)}:\n${await chatSeen(chat)}`);
  await input.press('Enter');
  const firstLine = text.split('\n')[0].trim().slice(0, 60);
  await until(
    chat.locator('#prompt:placeholder-shown'),
    `the composer to empty after Enter (the webview sending "${firstLine}")`,
    () => chatSeen(chat),
    { timeout: 10_000 },
  );
  await untilChat(chat, chat.locator('.entry.user', { hasText: firstLine }).first(), `the message "${firstLine}" on screen, sent or queued`, { timeout: 20_000 });
}

/**
 * Waits for an answer (`answer`, a locator of its last text) whose commands may ask on their
 * cards: each question is answered Allow once, as a user would, at most `questions` times.
 */
export async function untilAnsweredAllowingOnce(chat: FrameLocator, answer: Locator, questions = 6): Promise<void> {
  const asking = chat.locator('.entry.tool .approval-pending [data-action="allow-once"]');
  for (let i = 0; i < questions && !(await answer.isVisible()); i++) {
    await Promise.race([answer.waitFor({ timeout: 60_000 }), asking.first().waitFor({ timeout: 60_000 })]).catch(() => undefined);
    if ((await asking.count()) > 0) await asking.first().click({ timeout: 5_000 }).catch(() => undefined);
  }
  await untilChat(chat, answer, 'the answer', { timeout: 60_000 });
}
