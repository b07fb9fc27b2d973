/**
 * The setup every chat e2e suite shares: the scripted Messages API, a code-server workbench that
 * talks to it, the chat's webview frame, and the teardown. Call chatSuite() inside a mocha
 * `suite()`; it registers the hooks and hands the started parts to `ready`.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import { startMockMessagesApi, type MockMessagesApi, type MockStep } from '../../support/mockMessagesApi';
import { launchWorkbench, type LaunchedWorkbench } from './index';
import { stopAnswerLeftRunning } from './until';
import { webviewFrame } from './workbench';

/** A key of the right shape; the scripted API takes any. */
export const FAKE_KEY = 'sk-ant-e2e-fake-key-000000000000000000';

export interface ChatSuiteOptions {
  /** Prefix of the run folder (see CodeServerOptions.kind). */
  kind: string;
  /** User settings besides the API's URL. */
  settings?: Record<string, unknown>;
  /**
   * The turns the API answers with, in order, for the whole suite. Without them every test
   * scripts its own (mock.script), and after each test the turns are cleared and an answer it
   * left running is stopped, so a test that fails half-way cannot shift the next one's answers.
   */
  turns?: MockStep[];
  /** false: no API key reaches the extension host (a test sets it in the UI). Default true. */
  keyInEnvironment?: boolean;
  /** The window is reloaded: the API's URL (machine-scoped) goes in the machine's settings too. */
  reloads?: boolean;
  /** Files written into the workspace's memory folder (`.claude-memories`) before the tests. */
  memory?: Record<string, string>;
}

export interface ChatSuite {
  readonly wb: LaunchedWorkbench;
  readonly mock: MockMessagesApi;
  readonly chat: FrameLocator;
  /** The (first) workspace folder on disk. */
  readonly workspace: string;
  /** Its memory folder on disk. */
  readonly memory: string;
}

export function chatSuite(options: ChatSuiteOptions, ready: (suite: ChatSuite) => unknown): void {
  let wb: LaunchedWorkbench | undefined;
  let mock: MockMessagesApi | undefined;
  let chat: FrameLocator | undefined;

  suiteSetup(async function () {
    mock = await startMockMessagesApi(options.turns ?? []);
    wb = await launchWorkbench({
      kind: options.kind,
      theme: 'light',
      settings: { 'claudeMemory.apiBaseUrl': mock.url, ...options.settings },
      env: options.keyInEnvironment === false ? undefined : { ANTHROPIC_API_KEY: FAKE_KEY },
    });
    if (options.reloads) {
      // A reloaded code-server window may read a machine-scoped setting only from the remote
      // machine's settings (the first load also applies the user settings), so it goes in both.
      const machine = path.join(wb.server.dirs.userData, 'Machine');
      fs.mkdirSync(machine, { recursive: true });
      fs.writeFileSync(path.join(machine, 'settings.json'), JSON.stringify({ 'claudeMemory.apiBaseUrl': mock.url }));
    }
    const workspace = wb.server.workspaceFolders[0];
    const memory = path.join(workspace, '.claude-memories');
    if (options.memory) {
      fs.mkdirSync(memory, { recursive: true });
      for (const [name, text] of Object.entries(options.memory)) fs.writeFileSync(path.join(memory, name), text);
    }
    chat = webviewFrame(wb.page);
    await ready({ wb, mock, chat, workspace, memory });
  });

  suiteTeardown(async function () {
    await wb?.dispose(this);
    await mock?.close();
  });

  if (options.turns === undefined) {
    teardown(async function () {
      if (chat) await stopAnswerLeftRunning(chat);
      mock?.script([]);
    });
  }
}
