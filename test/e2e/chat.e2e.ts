// The chat as a person uses it, in the real workbench (code-server + Chromium) against the scripted
// Messages API on loopback: first contact without a key (the key prompt, the message kept and sent
// once the key is set), the full-height chat in its own container, the streamed answer with its
// memory card and what it changed, code blocks (Copy really copies, highlighting), following the
// conversation from a scrolled-up position, the working state through a delay and a 529 retry,
// New Chat and reopening, Add File to Chat, and light/dark/high-contrast screenshots.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import {
  LaunchedWorkbench, UI_TIMEOUT, again, chooseContextMenuItem, focusView, launchWorkbench, runCommand, screenshot, screenshotsDir, switchTheme, themeKind, sendFromComposer, treeRow, untilChat, webviewFrame,
} from './support';
import { FAKE_KEY, chatSuite } from './support/chatSuite';

const QUESTION = 'Please remember that my favourite colour is teal.';
const NOTE_PATH = '/memories/e2e-notes.md';
/** The memory card whose path button opens NOTE_PATH. */
const NOTE_CARD = `.entry.tool:has(.tool-path[title="Open ${NOTE_PATH}"])`;
const CODE = 'export function colour(): string {\n  return "teal";\n}';

// The final answer carries markdown, a code block, a table, plus HTML and a link that must not
// survive sanitizing.
const ANSWER = [
  'Saved it to `/memories/e2e-notes.md`:',
  '',
  '- **favourite colour**: teal',
  '- see [the memory tool docs](https://docs.anthropic.com/)',
  '',
  '```ts',
  CODE,
  '```',
  '',
  '| Command | Description |',
  '| --- | --- |',
  '| create | writes a new file |',
  '',
  '<img src="x" onerror="document.body.dataset.pwned = \'img\'"><script>document.body.dataset.pwned = \'script\'</script>',
  '[do not click](command:workbench.action.quit)',
  '',
  '<video src="https://example.com/v.mp4" autoplay></video><audio src="https://example.com/a.mp3"></audio><video><source src="https://example.com/s.mp4"></video><label for="composer">hostile label</label>',
].join('\n');

const LONG_ANSWER = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a long story about teal.`).join('\n\n');

const quickInput = '.quick-input-widget .quick-input-box input';

/** A close-up of the Chat view alone, next to the full-window screenshots. */
async function chatCloseUp(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  await page.locator('.part.sidebar').screenshot({ path: path.join(screenshotsDir, `${name}.png`) });
}

const command = (page: Page, title: string) => again(() => runCommand(page, title, UI_TIMEOUT));
const showView = (page: Page, name: string) => again(() => focusView(page, name, UI_TIMEOUT));

/** Answers the input box titled `title` (waiting for it, so the palette's own box is not used). */
async function answerInputBox(page: Page, title: string, text: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const box = page.locator(quickInput);
  await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await box.fill(text);
  await box.press('Enter');
}

// The page's globals, typed here: the e2e tsconfig has no DOM lib.
interface PageGlobals {
  navigator: { clipboard: { readText(): Promise<string>; writeText(text: string): Promise<void> } };
  getComputedStyle(el: unknown): { lineHeight: string; backgroundColor: string };
  performance: { now(): number };
  requestAnimationFrame(callback: () => void): number;
}

/**
 * True when `el` lies within the transcript's visible area (what the reader sees), checked each
 * frame for up to `timeoutMs`: the chat scrolls to the end in the frame after a change, so a single
 * check right after the element appears would race that frame on a loaded machine.
 */
async function inView(chat: FrameLocator, el: Locator, timeoutMs = 5_000): Promise<boolean> {
  await el.waitFor({ state: 'visible', timeout: timeoutMs });
  const view = chat.locator('#transcript');
  const viewHandle = await view.elementHandle();
  return el.evaluate(
    (node, [transcript, timeout]) =>
      new Promise<boolean>((resolve) => {
        const win = globalThis as unknown as PageGlobals;
        const started = win.performance.now();
        const check = (): void => {
          const box = (node as unknown as { getBoundingClientRect(): { y: number; height: number } }).getBoundingClientRect();
          const frame = (transcript as unknown as { getBoundingClientRect(): { y: number; height: number } }).getBoundingClientRect();
          if (box.y >= frame.y - 1 && box.y + Math.min(box.height, 20) <= frame.y + frame.height + 1) resolve(true);
          else if (win.performance.now() - started > (timeout as number)) resolve(false);
          else win.requestAnimationFrame(check);
        };
        check();
      }),
    [viewHandle, timeoutMs] as const,
  );
}


suite('chat view (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;

  // Each test scripts the turns it needs (mock.script). No API key reaches the extension host: the key is set in the UI.
  chatSuite({ kind: 'chat', keyInEnvironment: false }, async (s) => {
    ({ wb, mock, chat } = s);
    await wb.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  test('first contact: the chat has the full height and asks for a key before any message; the message waits and is sent once the key is set', async function () {
    const { page } = wb;
    mock.script([
      {
        content: [
          { type: 'text', text: 'Let me write that down.' },
          { type: 'tool_use', input: { command: 'create', path: NOTE_PATH, file_text: '# Preferences\n- favourite colour: teal\n' } },
        ],
      },
      { content: [{ type: 'text', text: ANSWER }] },
    ]);
    await command(page, 'Claude Memory: Open Chat');
    const keyPrompt = chat.locator('#key-prompt');
    await keyPrompt.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match((await keyPrompt.textContent()) ?? '', /needs an Anthropic API key/);
    assert.strictEqual((await keyPrompt.locator('[data-action="getApiKey"]').textContent())?.trim(), 'Get an API key');
    assert.match((await chat.locator('#key-state').textContent()) ?? '', /No API key/);
    assert.strictEqual(await chat.locator('.entry').count(), 0, 'the prompt comes before any message');

    // Its own container: the chat's webview gets (nearly) the whole height of the side bar.
    const frame = await page.locator('iframe.webview.ready').first().boundingBox();
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    assert.ok(frame && sidebar && frame.height > sidebar.height * 0.8, `chat ${frame?.height} px of a ${sidebar?.height} px side bar`);
    await screenshot(page, 'chat-first-contact-light');

    // Asked without a key: the question stays, nothing is sent, and the prompt says it is kept.
    await sendFromComposer(chat, QUESTION);
    await chat.locator('.entry.user', { hasText: QUESTION }).waitFor({ timeout: 20_000 });
    await keyPrompt.filter({ hasText: 'Your message is kept' }).waitFor({ timeout: 10_000 });
    assert.strictEqual(await chat.locator('.entry.error').count(), 0, 'no error card about environment variables');
    assert.strictEqual(mock.requests.length, 0, 'nothing was sent without a key');

    await keyPrompt.locator('button[data-action="setApiKey"]').click();
    await answerInputBox(page, 'Anthropic API Key', FAKE_KEY);

    // Setting the key sends the waiting question: the answer, the card and one usage line arrive.
    const card = chat.locator(NOTE_CARD);
    await card.waitFor({ timeout: 30_000 });
    await card.locator('.status-ok').waitFor({ timeout: 30_000 });
    await keyPrompt.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.match((await chat.locator('#key-state').textContent()) ?? '', /API key set/);
    assert.strictEqual(await chat.locator('.entry.user', { hasText: QUESTION }).count(), 1, 'not retyped, not shown twice');
    assert.strictEqual((await card.locator('.tool-command').textContent())?.trim(), 'create');
    assert.strictEqual((await card.locator('.tool-path').textContent())?.trim(), 'e2e-notes.md');
    const answer = chat.locator('.entry.assistant', { hasText: 'favourite colour' });
    await answer.waitFor({ timeout: 30_000 });
    assert.strictEqual(await answer.getAttribute('aria-busy'), 'false', 'the answer is complete');
    assert.strictEqual(await answer.locator('strong', { hasText: 'favourite colour' }).count(), 1, 'markdown is rendered');

    // One compact usage line for the answer (two model requests), with details on hover.
    const usage = chat.locator('.entry.usage');
    assert.strictEqual(await usage.count(), 1, 'one usage line per answer');
    assert.match((await usage.textContent()) ?? '', /^[\d.,K]+ in · [\d.,K]+ out( · [\d.,K]+ cached)? · ≈ (\$\d+\.\d+|<\$0\.001)$/);
    assert.match((await usage.getAttribute('title')) ?? '', /2 model request\(s\)[\s\S]*Estimated cost/);

    // Sanitized: no image, no script ran, the command: link lost its target, the web link kept it.
    assert.strictEqual(await answer.locator('img, script, video, audio, source, label').count(), 0);
    assert.strictEqual(await answer.locator('[for], [src]').count(), 0);
    assert.strictEqual(await chat.locator('body').getAttribute('data-pwned'), null);
    assert.strictEqual(await answer.locator('a', { hasText: 'do not click' }).getAttribute('href'), null);
    assert.strictEqual(await answer.locator('a', { hasText: 'memory tool docs' }).getAttribute('href'), 'https://docs.anthropic.com/');

    // The card shows what changed: the created file's lines, and its full path on hover.
    const toggle = card.locator('.tool-toggle');
    await toggle.click();
    assert.strictEqual(await toggle.getAttribute('aria-expanded'), 'true');
    assert.match((await card.locator('.tool-summary').textContent()) ?? '', /created \/memories\/e2e-notes\.md/);
    assert.deepStrictEqual((await card.locator('.diff-ins .diff-text').allTextContents()), ['# Preferences', '- favourite colour: teal']);
    assert.strictEqual(await card.locator('.tool-path').getAttribute('title'), `Open ${NOTE_PATH}`);

    await screenshot(page, 'chat-answer-light');
    await chatCloseUp(page, 'chat-pane-light');
  });

  test('a code block has a language label, highlighting and a Copy button that copies; table headers do not break mid-word', async function () {
    const { page } = wb;
    const block = chat.locator('.entry.assistant .code-block').first();
    await block.scrollIntoViewIfNeeded();
    assert.strictEqual((await block.locator('.code-language').textContent())?.trim(), 'ts');
    assert.ok((await block.locator('code.hljs .hljs-keyword').count()) > 0, 'keywords are highlighted');
    await block.hover();
    const copy = block.locator('button[data-action="copy"]');
    await copy.waitFor({ state: 'visible' });
    await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.writeText('before'));
    await copy.click();
    // The status bar says so once the extension host's clipboard write is done.
    await page.locator('.statusbar', { hasText: 'Code copied' }).waitFor({ timeout: 10_000 });
    const copied = await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());
    assert.strictEqual(copied, CODE);
    for (const action of ['insert', 'newFile']) assert.ok(await block.locator(`button[data-action="${action}"]`).isVisible(), `${action} is offered`);
    await screenshot(page, 'chat-code-block-light');

    const header = chat.locator('.entry.assistant th', { hasText: 'Description' });
    const lineHeight = await header.evaluate((el) => parseFloat((globalThis as unknown as PageGlobals).getComputedStyle(el).lineHeight) || 18);
    const box = await header.boundingBox();
    assert.ok(box && box.height < lineHeight * 2, `the header stays on one line (${box?.height} px)`);
  });

  test('a send from a scrolled-up position shows the new message, the working state while Claude is slow, and the answer', async function () {
    mock.script([
      { content: [{ type: 'text', text: LONG_ANSWER }] },
      // A slow first token: the chat says it is waiting.
      { content: [{ type: 'text', text: 'Sorry for the wait: teal.' }], faults: [{ type: 'delay', ms: 5000 }] },
    ]);
    await sendFromComposer(chat, 'Tell me a long story.');
    await chat.locator('.entry.assistant', { hasText: 'Paragraph 60 of' }).waitFor({ timeout: 30_000 });
    await chat.locator('#stop').waitFor({ state: 'hidden', timeout: 10_000 });

    // The reader scrolls up: "Jump to latest" appears and brings them back.
    await chat.locator('#transcript').evaluate((el) => (el.scrollTop = 0));
    const jump = chat.locator('#jump');
    await jump.waitFor({ state: 'visible', timeout: 5_000 });
    await screenshot(wb.page, 'chat-jump-to-latest-light');
    await jump.click();
    await jump.waitFor({ state: 'hidden', timeout: 5_000 });
    assert.ok(await inView(chat, chat.locator('.entry.usage').last()), 'at the end again');

    // Scrolled up again, the reader sends: the message and the working state are on screen.
    await chat.locator('#transcript').evaluate((el) => (el.scrollTop = 0));
    await jump.waitFor({ state: 'visible', timeout: 5_000 });
    await sendFromComposer(chat, 'Are you there?');
    const mine = chat.locator('.entry.user', { hasText: 'Are you there?' });
    await mine.waitFor({ timeout: 10_000 });
    const working = chat.locator('#working');
    await working.filter({ hasText: 'Waiting for Claude…' }).waitFor({ state: 'visible', timeout: 5_000 });
    assert.ok(await inView(chat, mine), 'the new message is scrolled into view');
    assert.ok(await inView(chat, working), 'the working state is in view');
    await screenshot(wb.page, 'chat-waiting-light');
    const reply = chat.locator('.entry.assistant', { hasText: 'Sorry for the wait' });
    await reply.waitFor({ timeout: 30_000 });
    await working.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.ok(await inView(chat, reply), 'the answer is followed');
  });

  test('an overloaded API shows the retry the SDK makes, then the answer', async function () {
    // Overloaded once; the SDK retries after 4 s.
    mock.script([{ content: [{ type: 'text', text: 'Back again: still teal.' }], faults: [{ type: 'status', status: 529, times: 1, retryAfterMs: 4000 }] }]);
    await sendFromComposer(chat, 'Still there?');
    const working = chat.locator('#working');
    await working.filter({ hasText: /Overloaded — retrying in 4 s \(attempt 1 of 2\)/ }).waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(wb.page, 'chat-retrying-light');
    await chat.locator('.entry.assistant', { hasText: 'Back again' }).waitFor({ timeout: 30_000 });
    await working.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  test('clicking the path on a card opens the memory file in an editor', async function () {
    await chat.locator(`${NOTE_CARD} .tool-path`).click();
    const tab = wb.page.locator('.tabs-container .tab', { hasText: 'e2e-notes.md' });
    await tab.waitFor({ timeout: 15_000 });
    await wb.page.locator('.monaco-editor .view-lines', { hasText: 'favourite colour: teal' }).first().waitFor({ timeout: 15_000 });
  });

  test('the conversation, with its expanded card, is still there after switching views and back with the keybinding', async function () {
    const { page } = wb;
    await command(page, 'View: Show Explorer');
    await page.locator('.part.sidebar .composite.title', { hasText: /explorer/i }).waitFor({ timeout: 10_000 });
    // The keybinding (Ctrl+Alt+C) brings the chat back with the keyboard in the input.
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);
    await page.keyboard.press('Control+Alt+C');
    await chat.locator(NOTE_CARD).waitFor({ timeout: 20_000 });
    await chat.locator('.entry.user', { hasText: QUESTION }).waitFor({ timeout: 5_000 });
    assert.strictEqual(await chat.locator(`${NOTE_CARD} .tool-toggle`).getAttribute('aria-expanded'), 'true', 'the card stays expanded');
    await chat.locator('#prompt:focus').waitFor({ timeout: 10_000 });
  });

  test('Enter sends from the composer, Shift+Enter adds a line, Escape stops a running answer', async function () {
    mock.script([
      // Edits the memory file the user has open in an editor (its tab must stay open).
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: NOTE_PATH, old_str: 'colour: teal', new_str: 'colour: dark teal' } }] },
      { content: [{ type: 'text', text: 'You told me: **teal**.' }] },
      // Streams a little, then hangs until stopped.
      { content: [{ type: 'text', text: 'Thinking about a very long answer that never ends…' }], faults: [{ type: 'hang', afterEvents: 4 }] },
    ]);
    const input = chat.locator('#prompt');
    await input.click();
    await input.pressSequentially('What colour');
    await input.press('Shift+Enter');
    await input.pressSequentially('do I like?');
    assert.strictEqual(await input.inputValue(), 'What colour\ndo I like?');
    await input.press('Enter');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'You told me: teal.' }), 'the answer to the two-line message');
    assert.strictEqual(await input.inputValue(), '', 'the input is cleared after sending');
    await chat.locator('.entry.user .user-text', { hasText: 'do I like?' }).waitFor();
    // Claude's edit of the memory file open in the editor: the tab stays open and shows it.
    const { page } = wb;
    await page.locator('.monaco-editor .view-lines', { hasText: 'favourite colour: dark teal' }).first().waitFor({ timeout: 15_000 });
    assert.strictEqual(await page.locator('.tabs-container .tab', { hasText: 'e2e-notes.md' }).count(), 1, 'the editor tab is still open');

    await input.pressSequentially('Write me a long story.');
    assert.strictEqual(await input.inputValue(), 'Write me a long story.', 'the composer still has the keyboard after the editor tab was checked');
    await input.press('Enter');
    await untilChat(chat, chat.locator('.entry.user', { hasText: 'Write me a long story.' }), 'the message sent right after an answer ended');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Thinking about' }), 'the streamed start of the long answer');
    const stop = chat.locator('#stop');
    assert.ok(await stop.isVisible(), 'Stop is shown while the answer runs');
    await input.press('Escape');
    await untilChat(chat, chat.locator('.entry.user:has-text("Write me a long story.") ~ .entry.notice', { hasText: /^Stopped/ }), 'the Stopped notice after Escape');
    await stop.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  test('Add File to Chat in the Explorer puts a chip in the input; it goes with the next message', async function () {
    const { page } = wb;
    mock.script([{ content: [{ type: 'text', text: 'The README describes the sample project.' }] }]);
    const explorer = await showView(page, 'Explorer');
    await chooseContextMenuItem(page, treeRow(explorer, 'README.md'), 'Add File to Chat');
    const chip = chat.locator('#attachments .chip', { hasText: 'README.md' });
    await chip.waitFor({ timeout: 15_000 });
    await sendFromComposer(chat, 'What does the README say?');
    await untilChat(chat, chat.locator('.entry.user:has-text("What does the README say?") .chip', { hasText: 'README.md' }), 'the message with its chip');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'The README describes' }), 'the answer about the README');
    await untilChat(chat, chat.locator('.entry.user:has-text("What does the README say?") ~ .entry.usage'), 'the usage line of that answer');
    await chip.waitFor({ state: 'detached', timeout: 5_000 });
    const sent = JSON.stringify(mock.requests.at(-1)?.body.messages);
    assert.match(sent, /Attached README\.md/, 'the file went with the message');
  });

  test('New Chat sets the conversation aside and it can be reopened', async function () {
    const { page } = wb;
    await command(page, 'Claude Memory: New Chat');
    const reopen = chat.locator('#previous #reopen');
    await reopen.waitFor({ state: 'visible', timeout: 10_000 });
    assert.strictEqual(await chat.locator('.entry').count(), 0);
    await reopen.click();
    await chat.locator('.entry.user', { hasText: QUESTION }).waitFor({ timeout: 10_000 });
    await chat.locator(NOTE_CARD).first().waitFor({ timeout: 5_000 });
  });

  test('the chat follows the theme: screenshots in dark and high contrast', async function () {
    const { page } = wb;
    // Picker labels, not theme ids ("Default Dark Modern" is listed as "Dark Modern").
    await again(() => switchTheme(page, 'Dark Modern'));
    await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: UI_TIMEOUT });
    assert.strictEqual(await themeKind(page), 'dark');
    await showView(page, 'Claude Chat');
    await chat.locator('.entry.tool').first().waitFor();
    // Answers far from the viewport are drawn when they come near it: scroll up to the first one.
    await chat.locator('#transcript').evaluate((el) => (el.scrollTop = 0));
    await untilChat(chat, chat.locator('.code-block').first(), 'the first answer, drawn once scrolled to');
    await chat.locator('.code-block').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-answer-dark');
    await chatCloseUp(page, 'chat-pane-dark');
    // The webview gets the theme's colours through CSS variables, not a fixed palette.
    const background = await chat
      .locator('.entry.user')
      .first()
      .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
    assert.notStrictEqual(background, 'rgb(255, 255, 255)');

    await again(() => switchTheme(page, 'Dark High Contrast'));
    await page.locator('.monaco-workbench.hc-black').waitFor({ timeout: UI_TIMEOUT });
    assert.strictEqual(await themeKind(page), 'high-contrast');
    await screenshot(page, 'chat-answer-hc');
    await chatCloseUp(page, 'chat-pane-hc');
  });
});

suite('chat view in Restricted Mode (e2e)', function () {
  let wb: LaunchedWorkbench;

  suiteSetup(async function () {
    wb = await launchWorkbench({ kind: 'chatu', theme: 'light', trust: false });
  });

  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('the chat says why it is off and its input is disabled', async function () {
    const { page } = wb;
    await showView(page, 'Claude Chat');
    const chat = webviewFrame(page);
    const banner = chat.locator('#banner');
    await banner.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match((await banner.textContent()) ?? '', /Restricted Mode/);
    assert.strictEqual(await chat.locator('#prompt').isDisabled(), true);
    assert.strictEqual(await chat.locator('#send').isDisabled(), true);
    assert.strictEqual((await chat.locator('#banner-action').textContent())?.trim(), 'Manage Workspace Trust');
    assert.ok(!(await chat.locator('#empty').isVisible()), 'no "ask something" hint while the chat is off');
    assert.ok(!(await chat.locator('#key-prompt').isVisible()), 'no key prompt while the chat is off');
    await screenshot(page, 'chat-restricted-light');
    // The banner's button opens VS Code's trust editor.
    await chat.locator('#banner-action').click();
    await page.locator('.workspace-trust-editor').first().waitFor({ timeout: UI_TIMEOUT });
  });
});
