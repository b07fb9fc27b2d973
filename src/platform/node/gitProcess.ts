/** The checkpoint store's GitRunner: `git` from PATH, with only the environment core built. */
import { spawn } from 'node:child_process';
import type { GitCall, GitResult, GitRunner } from '../../core/checkpoints/git';

export class NodeGitRunner implements GitRunner {
  constructor(private readonly gitPath: string = 'git') {}

  run(call: GitCall): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      // PATH (to find git's helpers) and, on Windows, what a process needs to start; nothing else
      // of the host's environment (GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_* would redirect git).
      const env: Record<string, string> = { ...call.env };
      for (const name of ['PATH', 'SystemRoot', 'SYSTEMROOT', 'TMPDIR', 'TEMP', 'TMP']) {
        const value = process.env[name];
        if (value !== undefined) env[name] = value;
      }
      const child = spawn(this.gitPath, call.args, { env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => reject(e));
      child.on('close', (code) => resolve({ code: code ?? 128, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
      // git may exit before reading all of stdin (an early error): that is its exit code's story.
      child.stdin.on('error', () => undefined);
      child.stdin.end(call.input ?? '');
    });
  }
}
