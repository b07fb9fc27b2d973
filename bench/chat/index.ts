/**
 * Chat benchmark (issue 24): a long chat must feel like the first message. The real workbench
 * (code-server + headless Chromium, test/e2e/support) against the scripted Messages API builds a
 * session of BENCH_CHAT_MESSAGES messages (default 150) typed in the composer, each answered with
 * 2–4 tool cards (a memory write, a 200-line command output, an editor view, a memory edit) and a
 * 1–3 KB markdown answer streamed in 40 pieces. At 2, ⅓ and all of the messages it measures:
 *   - render lag: from the end of the answer's HTTP response to the finished answer on screen
 *     (median of the last five answers up to the mark);
 *   - keystroke latency: 50 characters typed, keydown → the next frame after the input (median, p95);
 *   - saved webview state: bytes written per keystroke and during one answer (chatStateStats);
 *   - chat files written during one answer (bytes of the files the save rewrote);
 *   - DOM nodes in the webview (far pages of rows are placeholders: chat.ts, pages.ts);
 *   - a window reload: time until the end of the chat is drawn, and how many rows came back
 *     (counted by scrolling the whole chat through, a view at a time: far rows are drawn again).
 * Every tenth message is sent while the one before is still answering (it must be queued, not
 * refused); at the end every message must be on screen once. Targets (same run): render lag and
 * keystroke latency at the last mark within 1.5x of the 2-message figures; every row back after
 * each reload; no send refused or lost. Heavy: runs only when named (`node out/bench/run.js chat`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { startMockMessagesApi, type MockTurn, type RecordedRequest } from '../../test/support/mockMessagesApi';
import { UI_TIMEOUT, again, launchWorkbench, runCommand, screenshot, waitForWorkbench, webviewFrame, type LaunchedWorkbench } from '../../test/e2e/support';

const FAKE_KEY = 'sk-ant-bench-fake-key-00000000000000000000';
const KEYSTROKES = 50;

interface Mark {
  messages: number;
  lagMs: number;
  keyMedianMs: number;
  keyP95Ms: number;
  stateBytesPerKey: number;
  stateBytesPerAnswer: number;
  chatFileBytesPerAnswer: number;
  domNodes: number;
  rows: number;
  reloadMs: number;
  /** From Open Chat (after the reload) to every row on the page. */
  viewMs: number;
  rowsBack: number;
}

/** A 1–3 KB markdown answer for message `i`, ending with its mark. */
function answer(i: number): string {
  const paragraphs = 3 + (i % 5);
  const parts = [`## Result of step ${i}`, ''];
  for (let p = 0; p < paragraphs; p++) {
    parts.push(`Paragraph ${p + 1}: the command printed its lines, the memory file **n${i}.md** now records what was learnt, and \`src/todo.js\` was read to check the loop. Nothing else changed.`, '');
  }
  parts.push('- first finding: the list is kept in memory', '- second finding: the tests pass', `- third finding: step ${i} is done`, '');
  parts.push('```ts', `export function step${i}(items: string[]): number {`, '  return items.filter((item) => item.length > 0).length;', '}', '```', '');
  parts.push(`Done with step ${i}. END-${i}-END`);
  return parts.join('\n');
}

/** The turn with the tool calls of message `i`: 2 to 4 cards. */
function toolTurn(i: number): MockTurn {
  const content: MockTurn['content'] = [
    { type: 'text', text: `Working on step ${i}.` },
    { type: 'tool_use', input: { command: 'create', path: `/memories/bench/n${i}.md`, file_text: `# Step ${i}\n${'- a line of notes\n'.repeat(10)}` } },
    { type: 'tool_use', name: 'bash', input: { command: `seq -f 'output line %g of step ${i}: all good' 1 200` } },
  ];
  if (i % 2 === 0) content.push({ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'src/todo.js' } });
  if (i % 3 === 0) content.push({ type: 'tool_use', input: { command: 'str_replace', path: `/memories/bench/n${i}.md`, old_str: `# Step ${i}`, new_str: `# Step ${i} (done)` } });
  return { content };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
}

function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
}

/** The chat files in the workspace storage: name → [mtime, size]. */
function chatFiles(userData: string): Map<string, [number, number]> {
  const files = new Map<string, [number, number]>();
  const root = path.join(userData, 'User', 'workspaceStorage');
  if (!fs.existsSync(root)) return files;
  for (const ws of fs.readdirSync(root)) {
    const dir = path.join(root, ws, 'claude-workspace-memory.claude-workspace-memory', 'chats');
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) {
      // A save's temporary file may be renamed away between the listing and the stat.
      if (f.endsWith('.tmp')) continue;
      try {
        const st = fs.statSync(path.join(dir, f));
        files.set(f, [st.mtimeMs, st.size]);
      } catch {
        // Gone since the listing: not counted.
      }
    }
  }
  return files;
}

/** Bytes of the chat files written (new or changed) between two listings: at least what a save wrote. */
function writtenBytes(before: Map<string, [number, number]>, after: Map<string, [number, number]>): number {
  let bytes = 0;
  for (const [name, [mtime, size]] of after) if (before.get(name)?.[0] !== mtime) bytes += size;
  return bytes;
}

// Runs in the chat webview (no DOM lib in this tsconfig: the page's globals are typed loosely).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Win = any;

/** Resolves (with Date.now()) in the first frame where the finished answer with `mark` is on screen. */
async function seenAt(chat: FrameLocator, mark: string): Promise<number> {
  return chat.locator('#transcript').evaluate(
    (transcript: Win, m: string) =>
      new Promise<number>((resolve) => {
        const w = globalThis as Win;
        // The last 40 rows, from the end: rows live in pages (chat.ts ROWS_PER_PAGE).
        const check = () => {
          let n = 0;
          for (let page = transcript.lastElementChild; page && n < 40; page = page.previousElementSibling) {
            if (!page.classList.contains('page')) continue;
            for (let el = page.lastElementChild; el && n < 40; n++, el = el.previousElementSibling) {
              if (el.classList.contains('assistant') && el.getAttribute('aria-busy') === 'false' && (el.textContent ?? '').includes(m)) {
                resolve(Date.now());
                return;
              }
            }
          }
          w.requestAnimationFrame(check);
        };
        check();
      }),
    mark,
  );
}

async function stateStats(chat: FrameLocator): Promise<{ stateWrites: number; stateBytes: number }> {
  return chat.locator('#transcript').evaluate(() => ({ ...((globalThis as Win).chatStateStats ?? { stateWrites: 0, stateBytes: 0 }) }));
}

/** Waits until the saved state's counters stop changing (the debounced write has happened). */
async function settledStats(chat: FrameLocator, page: Page): Promise<{ stateWrites: number; stateBytes: number }> {
  let last = await stateStats(chat);
  for (let quiet = 0; quiet < 4; ) {
    await page.waitForTimeout(250);
    const now = await stateStats(chat);
    quiet = now.stateWrites === last.stateWrites ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/** Types KEYSTROKES characters; each keystroke's latency is keydown → the frame after its input event. */
async function keystrokes(chat: FrameLocator, page: Page): Promise<{ latencies: number[]; bytesPerKey: number }> {
  const input = chat.locator('#prompt');
  await input.click();
  await input.evaluate((el: Win) => {
    const w = globalThis as Win;
    w.benchKeys = [];
    el.addEventListener('keydown', (e: Win) => {
      const start = e.timeStamp;
      w.requestAnimationFrame(() => w.setTimeout(() => w.benchKeys.push(w.performance.now() - start), 0));
    });
  });
  const before = await settledStats(chat, page);
  await page.keyboard.type('a draft that is typed while the chat is long'.padEnd(KEYSTROKES, '.').slice(0, KEYSTROKES), { delay: 40 });
  const after = await settledStats(chat, page);
  const latencies = (await input.evaluate(() => (globalThis as Win).benchKeys as number[])) ?? [];
  await input.fill('');
  await settledStats(chat, page);
  return { latencies, bytesPerKey: (after.stateBytes - before.stateBytes) / KEYSTROKES };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

async function send(chat: FrameLocator, text: string): Promise<void> {
  const input = chat.locator('#prompt');
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Every row of the chat, as the reader gets it: the transcript is scrolled from the top to the
 * end a view at a time, each time until no placeholder page is left in view (far pages are drawn
 * again as they come near: chat.ts / pages.ts), and every drawn row is counted once. Returns the
 * number of rows and the users' messages; leaves the view at the end.
 */
async function allRows(chat: FrameLocator): Promise<{ count: number; users: string[] }> {
  return chat.locator('#transcript').evaluate(async (t: Win) => {
    const w = globalThis as Win;
    const frame = () => new Promise<void>((resolve) => w.requestAnimationFrame(() => resolve()));
    const settle = async () => {
      for (let n = 0; n < 300; n++) {
        await frame();
        const top = t.getBoundingClientRect().top;
        const bottom = top + t.clientHeight;
        const waiting = Array.from(t.querySelectorAll(':scope > .page.far')).some((p: Win) => {
          const box = p.getBoundingClientRect();
          return box.bottom > top && box.top < bottom;
        });
        if (!waiting) return;
      }
      throw new Error('a page in view was not drawn within 300 frames');
    };
    const rows = new Map<string, string>();
    const take = () => {
      for (const el of Array.from(t.querySelectorAll(':scope > .page > .entry')) as Win[]) {
        if (!rows.has(el.dataset.id)) rows.set(el.dataset.id, el.classList.contains('user') ? (el.textContent ?? '') : '');
      }
    };
    t.scrollTop = 0;
    await settle();
    for (;;) {
      take();
      if (t.scrollTop + t.clientHeight >= t.scrollHeight - 2) break;
      t.scrollTop += Math.max(100, t.clientHeight - 40);
      await settle();
    }
    t.scrollTop = t.scrollHeight;
    await settle();
    take();
    return { count: rows.size, users: [...rows.values()].filter((text) => text !== '') };
  });
}

/** Resolves once the end of message `i` is drawn: its answer and, as the last row, its usage line. */
async function endDrawn(chat: FrameLocator, i: number, timeoutMs: number): Promise<void> {
  await chat.locator('#transcript').evaluate(
    (t: Win, args: { mark: string; timeoutMs: number }) =>
      new Promise<void>((resolve, reject) => {
        const w = globalThis as Win;
        const limit = Date.now() + args.timeoutMs;
        const check = () => {
          const rows = t.querySelectorAll(':scope > .page > .entry');
          const last = rows[rows.length - 1];
          const answered = Array.from(rows).slice(-12).some((el: Win) => el.classList.contains('assistant') && (el.textContent ?? '').includes(args.mark));
          if (last?.classList.contains('usage') && answered) resolve();
          else if (Date.now() > limit) reject(new Error(`the end of the chat (${args.mark}) was not drawn in time`));
          else w.requestAnimationFrame(check);
        };
        check();
      }),
    { mark: `END-${i}-END`, timeoutMs },
  );
}

export async function run(): Promise<void> {
  if (!process.argv.includes('chat')) {
    console.log('skipped: the chat benchmark runs the real workbench; run it by name (node out/bench/run.js chat), BENCH_CHAT_MESSAGES=150 by default');
    return;
  }
  const total = Math.max(3, Number(process.env.BENCH_CHAT_MESSAGES ?? 150));
  const marks = [...new Set([2, Math.round(total / 3), total])];
  const started = Date.now();
  const ends: Array<{ calledAt: number; record: RecordedRequest }> = [];
  const mock = await startMockMessagesApi([], { chunks: 40 });
  for (let i = 1; i <= total; i++) {
    mock.push(toolTurn(i), (record) => {
      ends[i] = { calledAt: Date.now(), record };
      return { content: [{ type: 'text', text: answer(i) }] };
    });
  }
  let wb: LaunchedWorkbench | undefined;
  const results: Mark[] = [];
  let refused = 0;
  try {
    wb = await launchWorkbench(
      { kind: 'chatbench', theme: 'dark', settings: { 'claudeMemory.apiBaseUrl': mock.url, 'claudeMemory.commands.allow': ['seq'] }, env: { ANTHROPIC_API_KEY: FAKE_KEY } },
    );
    const { page } = wb;
    // The reloaded window reads the machine-scoped base URL from the remote machine's settings.
    const machine = path.join(wb.server.dirs.userData, 'Machine');
    fs.mkdirSync(machine, { recursive: true });
    fs.writeFileSync(path.join(machine, 'settings.json'), JSON.stringify({ 'claudeMemory.apiBaseUrl': mock.url }));
    const command = (title: string) => again(() => runCommand(page, title, UI_TIMEOUT));
    await command('Claude Memory: Open Chat');
    let chat = webviewFrame(page);
    await chat.locator('#prompt').waitFor({ timeout: UI_TIMEOUT });

    let early = false;
    const lags: number[] = [];
    for (let i = 1; i <= total; i++) {
      const stats0 = await stateStats(chat);
      const files0 = chatFiles(wb.server.dirs.userData);
      if (!early) await send(chat, `Step ${i}: please go on.`);
      early = false;
      // Every tenth message goes out while the answer before it still runs: it must wait, not vanish.
      if (i % 10 === 5 && i < total) {
        await chat.locator('.entry.tool .tool-output', { hasText: `of step ${i}:` }).first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
        await send(chat, `Step ${i + 1}: please go on.`);
        early = true;
      }
      const seen = await seenAt(chat, `END-${i}-END`);
      const end = ends[i];
      lags[i] = seen - (end.calledAt + (end.record.handlingMs ?? 0));
      if (!marks.includes(i)) {
        if (i % 25 === 0) console.log(`  … ${i} messages (${((Date.now() - started) / 1000).toFixed(0)} s)`);
        continue;
      }
      await endDrawn(chat, i, UI_TIMEOUT);
      const stats1 = await settledStats(chat, page);
      const files1 = chatFiles(wb.server.dirs.userData);
      const keys = await keystrokes(chat, page);
      const domNodes = await chat.locator('body').evaluate((b: { getElementsByTagName(t: string): { length: number } }) => b.getElementsByTagName('*').length);
      if (i === total) {
        await screenshot(page, 'chat-bench-long-dark');
        // The middle of the long chat, drawn again after it was far.
        await chat.locator('#transcript').evaluate(async (t: Win) => {
          t.scrollTop = t.scrollHeight / 2;
          for (let n = 0; n < 10; n++) await new Promise<void>((resolve) => (globalThis as Win).requestAnimationFrame(() => resolve()));
        });
        await screenshot(page, 'chat-bench-middle-dark');
      }
      // Not timed: every row, drawn again page by page as the view goes through them.
      const rows = (await allRows(chat)).count;
      const reloadStart = Date.now();
      await page.reload();
      await waitForWorkbench(page);
      await command('Claude Memory: Open Chat');
      const viewStart = Date.now();
      chat = webviewFrame(page);
      await endDrawn(chat, i, 60_000);
      const reloadMs = Date.now() - reloadStart;
      const viewMs = Date.now() - viewStart;
      const rowsBack = (await allRows(chat)).count;
      if (i === total) await screenshot(page, 'chat-bench-reloaded-dark');
      // The median of the last (up to) five answers: one answer is one noisy sample.
      const lag = median(lags.slice(Math.max(1, i - 4), i + 1).filter((n) => n !== undefined));
      const mark: Mark = {
        messages: i,
        lagMs: lag,
        viewMs,
        keyMedianMs: median(keys.latencies),
        keyP95Ms: p95(keys.latencies),
        stateBytesPerKey: keys.bytesPerKey,
        stateBytesPerAnswer: stats1.stateBytes - stats0.stateBytes,
        chatFileBytesPerAnswer: writtenBytes(files0, files1),
        domNodes,
        rows,
        reloadMs,
        rowsBack,
      };
      results.push(mark);
      console.log(`  ${i} messages: lag ${lag.toFixed(0)} ms (last answers: ${lags.slice(Math.max(1, i - 4), i + 1).map((n) => n.toFixed(0)).join(', ')}), keys ${mark.keyMedianMs.toFixed(1)}/${mark.keyP95Ms.toFixed(1)} ms, ${mark.domNodes} nodes, ${rows} rows, reload ${reloadMs} ms (chat view ${viewMs} ms) → ${rowsBack} rows`);
    }
    const { users } = await allRows(chat);
    for (let i = 1; i <= total; i++) if (users.filter((t) => t.includes(`Step ${i}:`)).length !== 1) refused++;
    const notices = await page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
    refused += notices.filter((n) => /still answering|not sent/i.test(n)).length;
  } finally {
    await wb?.dispose();
    await mock.close();
  }

  const kb = (n: number) => (n >= 10_000 ? `${(n / 1024).toFixed(0)} KB` : `${n.toFixed(0)} B`);
  console.log(`\nChat with ${total} messages (2–4 tool cards and a 1–3 KB answer each), real workbench, scripted API:`);
  console.log('| messages | render lag after last chunk | keystroke median / p95 | state per keystroke | state per answer | chat files per answer | DOM nodes | rows | reload (chat view) | rows back |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const m of results) {
    console.log(`| ${m.messages} | ${m.lagMs.toFixed(0)} ms | ${m.keyMedianMs.toFixed(1)} / ${m.keyP95Ms.toFixed(1)} ms | ${kb(m.stateBytesPerKey)} | ${kb(m.stateBytesPerAnswer)} | ${kb(m.chatFileBytesPerAnswer)} | ${m.domNodes} | ${m.rows} | ${(m.reloadMs / 1000).toFixed(1)} s (${(m.viewMs / 1000).toFixed(1)} s) | ${m.rowsBack} |`);
  }
  const first = results[0];
  const last = results[results.length - 1];
  // Keystrokes of a few ms: a 1-ms floor keeps the ratio meaningful when the baseline rounds to ~0.
  const ratio = (a: number, b: number) => Math.max(a, 1) / Math.max(b, 1);
  const verdicts = [
    [`render lag at ${last.messages} vs 2 messages: ${ratio(last.lagMs, first.lagMs).toFixed(2)}x (target ≤ 1.5x)`, ratio(last.lagMs, first.lagMs) <= 1.5],
    [`keystroke median at ${last.messages} vs 2: ${ratio(last.keyMedianMs, first.keyMedianMs).toFixed(2)}x (target ≤ 1.5x)`, ratio(last.keyMedianMs, first.keyMedianMs) <= 1.5],
    [`keystroke p95 at ${last.messages} vs 2: ${ratio(last.keyP95Ms, first.keyP95Ms).toFixed(2)}x (target ≤ 1.5x)`, ratio(last.keyP95Ms, first.keyP95Ms) <= 1.5],
    [`every row back after each reload: ${results.map((m) => `${m.rowsBack}/${m.rows}`).join(', ')}`, results.every((m) => m.rowsBack === m.rows)],
    [`sends refused or lost: ${refused} of ${total}`, refused === 0],
  ] as const;
  for (const [text, ok] of verdicts) console.log(`${ok ? 'MET   ' : 'MISSED'} ${text}`);
  console.log(`(run time ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
