/**
 * Mocha root hooks for the unit suite (.mocharc.json "require"): the process's state home
 * (where checkpoint repositories live, src/platform/node/checkpointRepository.ts) is a temp
 * folder, so a test that runs `claude-memory run` in process never writes to the real
 * ~/.local/state.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

let stateHome: string | undefined;
const saved = process.env.XDG_STATE_HOME;

export const mochaHooks = {
  beforeAll(): void {
    stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-state-home-'));
    process.env.XDG_STATE_HOME = stateHome;
  },
  afterAll(): void {
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
    if (stateHome !== undefined) fs.rmSync(stateHome, { recursive: true, force: true });
  },
};
