// A long chat's rows far out of view leave the DOM and come back intact (issue 24), in the real
// workbench against the scripted Messages API: one message answered with 26 texts and cards
// (~50 rows, four pages); at the end the first page is a placeholder of its measured height
// holding only its text, and scrolled back to, its rows are drawn again exactly as they were,
// with the cards the reader expanded still expanded; the view does not jump while pages are
// drawn; a re-shown view is back at the same row and draws only what is near it.
import * as assert from 'assert';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi, MockTurn } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, focusView, runCommand, screenshot, sendFromComposer, untilChat, webviewFrame } from './support';
import { chatSuite } from './support/chatSuite';

const SECTIONS = 24;

/** A ~40-line section of the report: tall enough that a few of them fill the view. */
function section(k: number): string {
  const lines = [`## Section ${k}`, '', `SECTION-${k}-MARK opens this part.`, ''];
  for (let p = 1; p <= 12; p++) lines.push(`Paragraph ${p} of section ${k}: what was read, what changed, and why it matters for the next step of the work.`, '');
  lines.push('```js', `const section${k} = ${k};`, '```');
  return lines.join('\n');
}

// The page's globals, typed here: the e2e tsconfig has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

interface RowShot {
  id: string;
  className: string;
  text: string;
}

/** The drawn rows of the first page: what must come back the same. */
async function firstPageRows(chat: FrameLocator): Promise<{ rows: RowShot[]; height: number; far: boolean }> {
  return chat.locator('#transcript > .page').first().evaluate((page: Any) => ({
    rows: Array.from(page.querySelectorAll(':scope > .entry')).map((el: Any) => ({ id: el.dataset.id, className: el.className, text: el.textContent })),
    height: page.getBoundingClientRect().height,
    far: page.classList.contains('far'),
  }));
}

/** Resolves after two frames: what an IntersectionObserver reported has been drawn and laid out. */
async function frames(chat: FrameLocator, n = 2): Promise<void> {
  await chat.locator('#transcript').evaluate(
    (_el: Any, count: number) =>
      new Promise<void>((resolve) => {
        const w = globalThis as Any;
        let left = count;
        const tick = () => (--left <= 0 ? resolve() : w.requestAnimationFrame(tick));
        w.requestAnimationFrame(tick);
      }),
    n,
  );
}

/** The first row whose bottom is below the top of the view, and its top relative to the view's. */
async function topRow(chat: FrameLocator): Promise<{ id: string; top: number }> {
  return chat.locator('#transcript').evaluate((t: Any) => {
    const top = t.getBoundingClientRect().top;
    for (const row of Array.from(t.querySelectorAll(':scope > .page > .entry')) as Any[]) {
      const box = row.getBoundingClientRect();
      if (box.bottom > top) return { id: row.dataset.id, top: Math.round(box.top - top) };
    }
    return { id: '', top: 0 };
  });
}
/* eslint-enable @typescript-eslint/no-explicit-any */

suite('a long chat draws only what is near the view (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;

  chatSuite({ kind: 'chatvirtual', settings: { 'claudeMemory.commands.allow': ['seq'] } }, (s) => ({ wb, mock, chat } = s));

  test('far rows leave the DOM, keep their height and text, and come back intact and expanded when scrolled to', async function () {
    const turns: MockTurn[] = [
      { content: [{ type: 'text', text: 'Starting the report. FIRST-TEXT' }, { type: 'tool_use', name: 'bash', input: { command: "seq -f 'report line %g' 1 40" } }] },
    ];
    for (let k = 1; k <= SECTIONS; k++) {
      turns.push({ content: [{ type: 'text', text: section(k) }, { type: 'tool_use', input: { command: 'create', path: `/memories/report/s${k}.md`, file_text: `# Section ${k}\n- noted\n` } }] });
    }
    turns.push({ content: [{ type: 'text', text: 'The report is written. REPORT-DONE' }] });
    mock.script(turns);
    const { page } = wb;
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Write the long report, one section at a time.');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'REPORT-DONE' }), 'the end of the long answer', { timeout: 120_000 });
    await chat.locator('#stop').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    const transcript = chat.locator('#transcript');

    // Back at the top: the first page is drawn again; the reader expands two cards there.
    await transcript.evaluate((t) => (t.scrollTop = 0));
    const firstRow = chat.locator('.entry.user', { hasText: 'Write the long report' });
    await firstRow.waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    await chat.locator('.entry.tool [data-action="output-all"]').first().click();
    const memoryToggle = chat.locator('.entry.tool:has(.tool-path[title="Open /memories/report/s1.md"]) .tool-toggle');
    await memoryToggle.click();
    await frames(chat);
    const before = await firstPageRows(chat);
    assert.ok(!before.far && before.rows.length >= 10, `the first page is drawn with its rows (${before.rows.length})`);
    assert.ok(before.rows.some((r) => r.text.includes('report line 40')), 'the whole command output is in the first page');

    // At the end, the first page is far: its rows left the DOM, its height and text stayed. (The
    // page with the focus stays drawn: the focus goes back to the composer first.)
    await chat.locator('#prompt').focus();
    await transcript.evaluate((t) => (t.scrollTop = t.scrollHeight));
    await firstRow.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    const away = await chat.locator('#transcript > .page').first().evaluate((p) => ({
      far: p.classList.contains('far'),
      elements: p.getElementsByTagName('*').length,
      height: p.getBoundingClientRect().height,
      text: p.textContent ?? '',
    }));
    assert.ok(away.far && away.elements === 0, `the far page holds no elements (${away.elements})`);
    assert.ok(Math.abs(away.height - before.height) <= 1, `the placeholder keeps the page's height: ${away.height} vs ${before.height}`);
    assert.ok(away.text.includes('FIRST-TEXT') && away.text.includes('SECTION-1-MARK') && away.text.includes('report line 40'), 'the placeholder keeps its rows\' text (find in page, screen readers)');
    const counts = await transcript.evaluate((t) => ({
      drawn: t.querySelectorAll(':scope > .page > .entry').length,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      all: (Array.from(t.querySelectorAll(':scope > .page')) as any[]).reduce((n: number, p) => n + (p.classList.contains('far') ? Number(p.dataset.rows) : p.querySelectorAll(':scope > .entry').length), 0),
    }));
    assert.ok(counts.all > 40 && counts.drawn < counts.all, `fewer rows drawn than the chat has: ${counts.drawn} of ${counts.all}`);

    // In the middle: pages drawn as they come near do not move what the reader looks at.
    await transcript.evaluate((t) => (t.scrollTop = t.scrollHeight / 2));
    await frames(chat, 3);
    const middle = await topRow(chat);
    await frames(chat, 6);
    const still = await topRow(chat);
    assert.deepStrictEqual(still, middle, 'the row at the top of the view stays where it was');
    const where = await transcript.evaluate((t) => ({ top: t.scrollTop, height: t.scrollHeight, view: t.clientHeight }));
    assert.ok(where.top + where.view < where.height - 1000, `still in the middle, not taken to the end: ${JSON.stringify(where)}, top row ${JSON.stringify(still)}`);
    await chat.locator('#jump').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot(page, 'chat-long-middle-light');

    // Scrolled back to the top, the first page's rows are drawn again, the same, expanded as left.
    await transcript.evaluate((t) => (t.scrollTop = 0));
    await firstRow.waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    await frames(chat);
    const after = await firstPageRows(chat);
    assert.deepStrictEqual(after.rows, before.rows, 'the rows come back as they were');
    assert.strictEqual(await chat.locator('.entry.tool .tool-output.tool-output-all').count(), 1, '"Show all" stays on');
    assert.strictEqual(await memoryToggle.getAttribute('aria-expanded'), 'true', 'the expanded card stays expanded');

    // Hidden and shown again (the webview is rebuilt): back at the same row; the end is not drawn.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const writes = () => transcript.evaluate(() => ((globalThis as any).chatStateStats as { stateWrites: number }).stateWrites);
    const written = await writes();
    // (A place not scrolled to before: a state that does not change is not written again.)
    await transcript.evaluate((t) => (t.scrollTop = t.scrollHeight * 0.6));
    await frames(chat, 3);
    const reading = await topRow(chat);
    // The saved state is written after a quiet moment; the view is then hidden.
    await transcript.evaluate(
      (_t, n) =>
        new Promise<void>((resolve, reject) => {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          const w = globalThis as any;
          const limit = Date.now() + 10_000;
          const check = () => (w.chatStateStats.stateWrites > n ? resolve() : Date.now() > limit ? reject(new Error('the saved state was not written after the scroll')) : w.requestAnimationFrame(check));
          check();
        }),
      written,
    );
    await again(() => focusView(page, 'Explorer', UI_TIMEOUT));
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    chat = webviewFrame(page);
    await chat.locator(`.entry[data-id="${reading.id}"]`).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    await frames(chat, 3);
    const back = await topRow(chat);
    assert.strictEqual(back.id, reading.id, 'the same row at the top of the view after it was shown again');
    const pages = await chat.locator('#transcript > .page').evaluateAll((els) => els.map((p) => p.classList.contains('far')));
    assert.ok(pages.includes(true), `pages far from the view are not drawn after a re-show (${JSON.stringify(pages)})`);
    await screenshot(page, 'chat-long-reshown-light');
  });
});
