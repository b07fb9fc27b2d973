// The chat as a person uses it, in the real workbench (code-server + Chromium) against the scripted
// Messages API on loopback: Ask Claude from the palette without a key, "Set API Key" from the error,
// the streamed answer with its memory card, the file in the Memory tree and in an editor, hiding
// and re-showing the view, Enter/Escape in the composer, and light/dark/high-contrast screenshots.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import { startMockMessagesApi, type MockMessagesApi } from '../support/mockMessagesApi';
import {
  LaunchedWorkbench, UI_TIMEOUT, again, focusView, launchWorkbench, runCommand, screenshot, screenshotsDir, switchTheme, themeKind, viewPane,
  webviewFrame,
} from './support';

const FAKE_KEY = 'sk-ant-e2e-fake-key-000000000000000000';
const QUESTION = 'Please remember that my favourite colour is teal.';
const NOTE_PATH = '/memories/e2e-notes.md';
/** The memory card whose path button opens NOTE_PATH. */
const NOTE_CARD = `.entry.tool:has(.tool-path[title="Open ${NOTE_PATH}"])`;

// The final answer carries markdown, plus HTML and a link that must not survive sanitizing.
const ANSWER = [
  'Saved it to `/memories/e2e-notes.md`:',
  '',
  '- **favourite colour**: teal',
  '- see [the memory tool docs](https://docs.anthropic.com/)',
  '',
  '<img src="x" onerror="document.body.dataset.pwned = \'img\'"><script>document.body.dataset.pwned = \'script\'</script>',
  '[do not click](command:workbench.action.quit)',
].join('\n');

const quickInput = '.quick-input-widget .quick-input-box input';

/** A close-up of the Chat view alone, next to the full-window screenshots. */
async function chatCloseUp(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  await viewPane(page, 'Chat').screenshot({ path: path.join(screenshotsDir, `${name}.png`) });
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

suite('chat view (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;

  suiteSetup(async function () {
    mock = await startMockMessagesApi([
      {
        content: [
          { type: 'text', text: 'Let me write that down.' },
          { type: 'tool_use', input: { command: 'create', path: NOTE_PATH, file_text: '# Preferences\n- favourite colour: teal\n' } },
        ],
      },
      { content: [{ type: 'text', text: ANSWER }] },
      { content: [{ type: 'text', text: 'You told me: **teal**.' }] },
      // Streams a little, then hangs until stopped.
      { content: [{ type: 'text', text: 'Thinking about a very long answer that never ends…' }], faults: [{ type: 'hang', afterEvents: 4 }] },
    ]);
    // No ANTHROPIC_API_KEY reaches the extension host (the harness removes it): the key is set in the UI.
    wb = await launchWorkbench({ kind: 'chat', theme: 'light', settings: { 'claudeMemory.apiBaseUrl': mock.url } });
    chat = webviewFrame(wb.page);
  });

  suiteTeardown(async function () {
    await wb?.dispose(this);
    await mock?.close();
  });

  test('Ask Claude without a key offers "Set API Key"; with the key the answer streams in with its memory card', async function () {
    const { page } = wb;
    await showView(page, 'Memory');
    // Room for the chat in the side bar: fold the Features view.
    const features = viewPane(page, 'Features').locator('.pane-header');
    if ((await features.getAttribute('aria-expanded')) === 'true') await features.click();
    await command(page, 'Claude Memory: Ask Claude…');
    await answerInputBox(page, 'Ask Claude', QUESTION);

    // The chat view opens with the question and an error that says what to do.
    await chat.locator('.entry.user', { hasText: QUESTION }).waitFor({ timeout: 20_000 });
    const error = chat.locator('.entry.error');
    await error.waitFor({ timeout: 20_000 });
    assert.match((await error.textContent()) ?? '', /API key/);
    assert.strictEqual(mock.requests.length, 0, 'nothing was sent without a key');
    await screenshot(page, 'chat-missing-key-light');

    await error.locator('button[data-action="setApiKey"]').click();
    await answerInputBox(page, 'Anthropic API Key', FAKE_KEY);

    // Setting the key re-sends the question: the answer, the card and the token lines arrive.
    const card = chat.locator(NOTE_CARD);
    await card.waitFor({ timeout: 30_000 });
    await card.locator('.badge-ok').waitFor({ timeout: 30_000 });
    assert.strictEqual((await card.locator('.tool-command').textContent())?.trim(), 'create');
    assert.strictEqual((await card.locator('.tool-path').textContent())?.trim(), 'e2e-notes.md');
    const answer = chat.locator('.entry.assistant', { hasText: 'favourite colour' });
    await answer.waitFor({ timeout: 30_000 });
    assert.strictEqual(await answer.getAttribute('aria-busy'), 'false', 'the answer is complete');
    assert.strictEqual(await answer.locator('strong', { hasText: 'favourite colour' }).count(), 1, 'markdown is rendered');
    assert.strictEqual(await chat.locator('.entry.usage').count(), 2, 'one token line per model request');
    assert.match((await chat.locator('#totals').textContent()) ?? '', /^Session: [\d,]+ in · [\d,]+ cache read · [\d,]+ cache write · [\d,]+ out$/);

    // Sanitized: no image, no script ran, the command: link lost its target, the web link kept it.
    assert.strictEqual(await answer.locator('img, script').count(), 0);
    assert.strictEqual(await chat.locator('body').getAttribute('data-pwned'), null);
    assert.strictEqual(await answer.locator('a', { hasText: 'do not click' }).getAttribute('href'), null);
    assert.strictEqual(await answer.locator('a', { hasText: 'memory tool docs' }).getAttribute('href'), 'https://docs.anthropic.com/');

    // The card expands to its result summary.
    const toggle = card.locator('.tool-toggle');
    await toggle.click();
    assert.strictEqual(await toggle.getAttribute('aria-expanded'), 'true');
    assert.match((await card.locator('.tool-summary').textContent()) ?? '', /created \/memories\/e2e-notes\.md/);

    // The Memory tree shows the new file.
    await viewPane(page, 'Memory').locator('.monaco-list-row .label-name', { hasText: /^\s*e2e-notes\.md\s*$/ }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'chat-answer-light');
    await chatCloseUp(page, 'chat-pane-light');
  });

  test('clicking the path on a card opens the memory file in an editor', async function () {
    await chat.locator(`${NOTE_CARD} .tool-path`).click();
    const tab = wb.page.locator('.tabs-container .tab', { hasText: 'e2e-notes.md' });
    await tab.waitFor({ timeout: 15_000 });
    await wb.page.locator('.monaco-editor .view-lines', { hasText: 'favourite colour: teal' }).first().waitFor({ timeout: 15_000 });
  });

  test('the conversation is still there after hiding the view and reopening it with Open Chat', async function () {
    const { page } = wb;
    await command(page, 'View: Show Explorer');
    await page.locator('.part.sidebar .composite.title', { hasText: /explorer/i }).waitFor({ timeout: 10_000 });
    // "Open Chat" brings the view back with the keyboard in the input.
    await command(page, 'Claude Memory: Open Chat');
    await chat.locator(NOTE_CARD).waitFor({ timeout: 20_000 });
    await chat.locator('.entry.user', { hasText: QUESTION }).waitFor({ timeout: 5_000 });
    assert.strictEqual(await chat.locator('.entry.usage').count(), 2);
    await chat.locator('#prompt:focus').waitFor({ timeout: 10_000 });
  });

  test('Enter sends from the composer, Shift+Enter adds a line, Escape stops a running answer', async function () {
    const input = chat.locator('#prompt');
    await input.click();
    await input.pressSequentially('What colour');
    await input.press('Shift+Enter');
    await input.pressSequentially('do I like?');
    assert.strictEqual(await input.inputValue(), 'What colour\ndo I like?');
    await input.press('Enter');
    await chat.locator('.entry.assistant', { hasText: 'You told me: teal.' }).waitFor({ timeout: 20_000 });
    assert.strictEqual(await input.inputValue(), '', 'the input is cleared after sending');
    await chat.locator('.entry.user .user-text', { hasText: 'do I like?' }).waitFor();

    await input.pressSequentially('Write me a long story.');
    await input.press('Enter');
    await chat.locator('.entry.assistant', { hasText: 'Thinking about' }).waitFor({ timeout: 20_000 });
    const stop = chat.locator('#stop');
    assert.ok(await stop.isVisible(), 'Stop is shown while the answer runs');
    await input.press('Escape');
    await chat.locator('.entry.notice', { hasText: /^Stopped/ }).waitFor({ timeout: 10_000 });
    await stop.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  test('the chat follows the theme: screenshots in dark and high contrast', async function () {
    const { page } = wb;
    // Picker labels, not theme ids ("Default Dark Modern" is listed as "Dark Modern").
    await again(() => switchTheme(page, 'Dark Modern'));
    await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: UI_TIMEOUT });
    assert.strictEqual(await themeKind(page), 'dark');
    await showView(page, 'Chat');
    await chat.locator('.entry.tool').first().waitFor();
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
    await showView(page, 'Chat');
    const chat = webviewFrame(page);
    const banner = chat.locator('#banner');
    await banner.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match((await banner.textContent()) ?? '', /Restricted Mode/);
    assert.strictEqual(await chat.locator('#prompt').isDisabled(), true);
    assert.strictEqual(await chat.locator('#send').isDisabled(), true);
    assert.strictEqual((await chat.locator('#banner-action').textContent())?.trim(), 'Manage Workspace Trust');
    assert.ok(!(await chat.locator('#empty').isVisible()), 'no "ask something" hint while the chat is off');
    await screenshot(page, 'chat-restricted-light');
    // The banner's button opens VS Code's trust editor.
    await chat.locator('#banner-action').click();
    await page.locator('.workspace-trust-editor').first().waitFor({ timeout: UI_TIMEOUT });
  });
});
