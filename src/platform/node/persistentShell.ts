/**
 * A persistent bash for the bash tool, on the extension host (so it runs where the workspace is,
 * remote ones included) or in the CLI. One process per chat, started in the workspace folder, in
 * its own process group so that Stop or a timeout kills the command's whole process tree with one
 * signal (the shell is then restarted: the tree cannot be told apart from the shell without job
 * control).
 *
 * Protocol: each command is written to a private temp file (0600) and sourced with stdin from
 * /dev/null (the command never reads our protocol) and stderr merged into stdout in order; then
 * the shell prints an end marker with a random nonce and the exit status. Sourcing keeps `cd` and
 * variables for later commands; the nonce keeps a command from faking the end of its own output.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ShellRunOptions, ShellRunResult, ShellSession } from '../../core/workspace/bashTool';

export interface PersistentShellOptions {
  cwd: string;
  /** Default /bin/bash. */
  shellPath?: string;
  env?: NodeJS.ProcessEnv;
}

interface Running {
  resolve(result: ShellRunResult): void;
  onOutput(chunk: string): void;
}

export class PersistentShell implements ShellSession {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly nonce = randomBytes(12).toString('hex');
  private readonly marker: string;
  private readonly tempDir: string;
  private pending = '';
  private decoder = new StringDecoder('utf8');
  private running: Running | undefined;

  constructor(private readonly options: PersistentShellOptions) {
    this.marker = `\n__CLAUDE_MEMORY_DONE_${this.nonce}_`;
    this.tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claude-memory-shell-'));
  }

  /** The process id of the current shell (its process group id too), for tests. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  run(command: string, options: ShellRunOptions): Promise<ShellRunResult> {
    if (this.running) return Promise.reject(new Error('a command is already running in this shell'));
    const child = this.ensure();
    const file = path.join(this.tempDir, 'command.sh');
    fs.writeFileSync(file, `${command}\n`, { mode: 0o600 });
    return new Promise<ShellRunResult>((resolve) => {
      const finish = (result: ShellRunResult) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.running = undefined;
        resolve(result);
      };
      const stop = (ended: 'timeout' | 'cancelled') => {
        if (!this.running) return;
        this.flushPending(options.onOutput);
        this.kill();
        finish({ exitCode: undefined, ended });
      };
      const onAbort = () => stop('cancelled');
      this.running = { resolve: finish, onOutput: options.onOutput };
      const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) return onAbort();
      child.stdin.write(`. ${quote(file)} < /dev/null 2>&1; printf '\\n__CLAUDE_MEMORY_DONE_%s_%d__\\n' ${this.nonce} "$?"\n`);
    });
  }

  async restart(): Promise<void> {
    this.kill();
    this.ensure();
  }

  dispose(): void {
    this.kill();
    fs.rmSync(this.tempDir, { recursive: true, force: true });
  }

  private ensure(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn(this.options.shellPath ?? '/bin/bash', ['--noprofile', '--norc'], {
      cwd: this.options.cwd,
      // Its own process group: kill(-pid) reaches every process the commands start.
      detached: true,
      env: { ...(this.options.env ?? process.env), PAGER: 'cat', GIT_PAGER: 'cat', TERM: 'dumb', GIT_TERMINAL_PROMPT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.pending = '';
    this.decoder = new StringDecoder('utf8');
    // A killed shell's last buffered bytes must not reach the next shell's command.
    child.stdout.on('data', (data: Buffer) => {
      if (this.child === child) this.onData(this.decoder.write(data));
    });
    // The shell's own complaints (outside a command's 2>&1) still belong to the running command.
    child.stderr.on('data', (data: Buffer) => {
      if (this.child === child) this.running?.onOutput(data.toString('utf8'));
    });
    child.on('error', () => this.onExit(child, undefined));
    child.on('exit', (code) => this.onExit(child, code ?? undefined));
    return child;
  }

  private onData(text: string): void {
    const running = this.running;
    this.pending += text;
    const at = this.pending.indexOf(this.marker);
    if (at >= 0) {
      const rest = this.pending.slice(at + this.marker.length);
      const end = rest.indexOf('__\n');
      if (end < 0) {
        if (at > 0) running?.onOutput(this.pending.slice(0, at));
        this.pending = this.pending.slice(at);
        return;
      }
      if (at > 0) running?.onOutput(this.pending.slice(0, at));
      const code = Number(rest.slice(0, end));
      this.pending = rest.slice(end + 3);
      running?.resolve({ exitCode: Number.isFinite(code) ? code : undefined });
      return;
    }
    // Hold back only a tail that could be the start of a marker split across chunks (the marker
    // starts with a newline, so only a tail from the last newline can be one).
    const nl = this.pending.lastIndexOf('\n');
    const keep = nl >= 0 && this.pending.length - nl < this.marker.length && this.marker.startsWith(this.pending.slice(nl)) ? this.pending.length - nl : 0;
    const emit = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    if (emit) running?.onOutput(emit);
  }

  private flushPending(onOutput: (chunk: string) => void): void {
    if (this.pending) onOutput(this.pending);
    this.pending = '';
  }

  private onExit(child: ChildProcessWithoutNullStreams, code: number | undefined): void {
    if (this.child !== child) return;
    this.child = undefined;
    const running = this.running;
    if (running) {
      this.flushPending(running.onOutput);
      running.resolve({ exitCode: code, ended: 'exited' });
    }
  }

  /** SIGKILL to the whole process group: the shell and everything its commands started. */
  private kill(): void {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    child.stdin.destroy();
  }
}

/** Single-quotes a path for the shell (the temp path is ours, but never trust a path in a command). */
function quote(text: string): string {
  return `'${text.split("'").join(`'\\''`)}'`;
}
