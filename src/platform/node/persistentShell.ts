/**
 * The bash tool's shell, on the extension host (so it runs where the workspace is, remote ones
 * included) or in the CLI. Anthropic's tool promises a persistent shell (the working directory
 * and exported variables carry over; `restart` resets them). Each command runs in a fresh bash —
 * inside the OS sandbox (commandSandbox.ts) when there is one, with the access its approval gives
 * — and the shell's state is kept here, in Node: the command's bash reports its working directory
 * and exported variables on a private pipe (fd 3, closed for the command itself) when the command
 * ends, and the next command starts from them. Keeping the state outside the sandbox is what lets
 * every command get its own permissions, and lets the end of a command end all its processes.
 *
 * Ending: the command's process group is killed at its end, on timeout and on Stop. In the sandbox
 * the command runs in its own PID namespace, so `setsid`, double forks and `nohup` die with it.
 * Without a sandbox every process of the command carries a random tag in its environment, and the
 * processes still carrying it are killed too (best effort: a command can clear its environment;
 * the rules are then the defence). Output pipes a survivor holds are closed after a short grace,
 * so a command never keeps the caller waiting. When this process exits, however it exits, the
 * running command is killed the same way first; a sandboxed one is a bubblewrap started directly
 * (no shell between) with --die-with-parent, so it dies with this process even on SIGKILL.
 * Each shell's private folder (TMPDIR, command file) lies in one owner-only folder the sandbox
 * hides from other shells' commands (`shellsRoot`).
 *
 * The environment holds no secret of the host: API keys and anything that looks like a secret, by
 * name or by value, are removed before the first command, and variables that make bash or the loader run code
 * (BASH_ENV, BASH_FUNC_*, LD_PRELOAD, …) never carry over from one command to the next.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { findSecrets } from '../../core/memory/redaction';
import type { ShellRunOptions, ShellRunResult, ShellSession } from '../../core/workspace/bashTool';
import { wrapInSandbox, type SandboxedCommand, type SandboxPolicy } from './commandSandbox';
import type { Undone } from './sandboxCheck';

export interface PersistentShellOptions {
  cwd: string;
  /** Default /bin/bash. */
  shellPath?: string;
  /** Default process.env; secret-looking variables are removed either way. */
  env?: NodeJS.ProcessEnv;
  /** Run every command in the OS sandbox with this policy; undefined: unsandboxed. */
  sandbox?: SandboxPolicy;
  /** Told what the sandbox moved out after a command, and where to (for the user's log). */
  onUndone?(undone: readonly Undone[]): void;
}

/** How long pipes a killed command's survivor holds may stay open before we close them. */
const PIPE_GRACE_MS = 250;
const TAG_NAME = 'CLAUDE_MEMORY_COMMAND_TAG';
const AFTER = 'CM_STATE_AFTER';

/** Names of variables that look like secrets: never passed to a command. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    upper.startsWith('ANTHROPIC') ||
    upper.startsWith('CLAUDE_MEMORY') ||
    /(^|_)(TOKEN|KEY|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PASSPHRASE|CREDENTIALS?|APIKEY|AUTH|COOKIE|SESSION)(_|$)/.test(upper) ||
    /(TOKEN|SECRET|PASSWORD|PASSWD|APIKEY|API_KEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIAL)/.test(upper) ||
    ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'VSCODE_IPC_HOOK', 'VSCODE_IPC_HOOK_CLI', 'VSCODE_GIT_IPC_HANDLE', 'VSCODE_GIT_ASKPASS_NODE', 'VSCODE_GIT_ASKPASS_MAIN', 'GIT_ASKPASS', 'SSH_ASKPASS'].includes(upper)
  );
}

function holdsSecret(name: string, value: string): boolean {
  return findSecrets(`${name}=${value}`).length > 0;
}

/** Variables that make bash or the loader run code, or that belong to the sandbox: never carried over. */
function isUnsafeToCarry(name: string): boolean {
  return (
    isSecretName(name) ||
    name.startsWith('BASH_FUNC_') ||
    /^(LD_|DYLD_)/.test(name) ||
    ['BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'IFS', 'TMPDIR', 'PWD', 'OLDPWD', 'SHLVL', '_', 'SANDBOX_RUNTIME'].includes(name) ||
    /PROXY/i.test(name)
  );
}

/**
 * The environment a command starts with: the host's, minus secrets and code-running variables.
 * A secret is dropped by its name and by its value: the redaction's detectors (the same ones
 * that keep secrets off disk) judge `NAME=value`, so an API key exported under any name, or a
 * `DATABASE_URL` with a password in it, does not reach the command.
 */
export function commandEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isUnsafeToCarry(name) || holdsSecret(name, value)) continue;
    result[name] = value;
  }
  return { ...result, PAGER: 'cat', GIT_PAGER: 'cat', TERM: 'dumb', GIT_TERMINAL_PROMPT: '0' };
}

interface State {
  cwd: string;
  env: Record<string, string>;
}

export class PersistentShell implements ShellSession {
  private readonly tempDir: string;
  private readonly tmp: string;
  private readonly commandFile: string;
  private readonly initial: State;
  private state: State;
  private child: ChildProcess | undefined;
  /** The running unsandboxed command's tag (its processes carry it in their environment). */
  private runningTag: string | undefined;
  private busy = false;

  constructor(private readonly options: PersistentShellOptions) {
    this.tempDir = fs.realpathSync(fs.mkdtempSync(path.join(shellsRoot(), 'shell-')));
    this.tmp = path.join(this.tempDir, 'tmp');
    fs.mkdirSync(this.tmp, { mode: 0o700 });
    fs.mkdirSync(path.join(this.tempDir, 'cmd'), { mode: 0o700 });
    this.commandFile = path.join(this.tempDir, 'cmd', 'command.sh');
    this.initial = { cwd: options.cwd, env: commandEnvironment(options.env ?? process.env) };
    this.state = { cwd: this.initial.cwd, env: { ...this.initial.env } };
  }

  /** The process id (and process group id) of the running command, for tests. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The private temporary folder commands get as TMPDIR. */
  get tmpDir(): string {
    return this.tmp;
  }

  async run(command: string, options: ShellRunOptions): Promise<ShellRunResult> {
    if (this.busy) throw new Error('a command is already running in this shell');
    this.busy = true;
    let sandboxed: SandboxedCommand | undefined;
    try {
      fs.writeFileSync(this.commandFile, `${command}\n`, { mode: 0o600 });
      const script = this.script();
      const tag = randomBytes(12).toString('hex');
      let file: string;
      let args: string[];
      if (this.options.sandbox) {
        sandboxed = await wrapInSandbox(script, this.options.sandbox, {
          access: options.access ?? 'read-only',
          shellDir: this.tempDir,
          tmpDir: this.tmp,
          shellsRoot: shellsRoot(),
          readOnly: [path.join(this.tempDir, 'cmd')],
          askNetwork: options.askNetwork,
        });
        // bubblewrap itself is the child (no shell between): with --die-with-parent the whole
        // sandbox dies when this process does, however it ends.
        file = sandboxed.file;
        args = sandboxed.args;
      } else {
        file = this.options.shellPath ?? '/bin/bash';
        args = ['--noprofile', '--norc', '-c', script];
      }
      const cwd = isDirectory(this.state.cwd) ? this.state.cwd : this.initial.cwd;
      const env = this.options.sandbox ? { ...this.state.env } : { ...this.state.env, [TAG_NAME]: tag };
      this.runningTag = this.options.sandbox ? undefined : tag;
      killedOnExit(this);
      const result = await this.spawnAndWait(file, args, cwd, env, tag, options);
      // Every process of the command has ended (its PID namespace with it): what it made in a
      // protected place can be taken out before anyone acts on it.
      const undone = sandboxed?.check() ?? [];
      if (undone.length === 0) return result;
      this.options.onUndone?.(undone);
      return { ...result, undone: undone.map((u) => u.shown) };
    } finally {
      runningShells.delete(this);
      sandboxed?.end();
      this.busy = false;
    }
  }

  /** Kills the running command and all it started, synchronously (this process is exiting). */
  killNow(): void {
    killGroup(this.child?.pid);
    if (this.runningTag !== undefined) killTagged(this.runningTag);
  }

  directory(): string {
    return isDirectory(this.state.cwd) ? this.state.cwd : this.initial.cwd;
  }

  async restart(): Promise<void> {
    this.killRunning(undefined);
    this.state = { cwd: this.initial.cwd, env: { ...this.initial.env } };
  }

  dispose(): void {
    this.killRunning(undefined);
    fs.rmSync(this.tempDir, { recursive: true, force: true });
  }

  /** The bash script around the command: TMPDIR, the state before and after on fd 3. */
  private script(): string {
    return [
      `export TMPDIR=${quote(this.tmp)}`,
      `{ command -p env -0; printf '%s\\0' ${AFTER}; } >&3 2>/dev/null`,
      `. ${quote(this.commandFile)} 3>&- < /dev/null 2>&1`,
      '__cm_status=$?',
      `{ printf '%s\\0' "$PWD"; command -p env -0; } >&3 2>/dev/null`,
      'exit $__cm_status',
    ].join('\n');
  }

  private spawnAndWait(file: string, args: string[], cwd: string, env: Record<string, string>, tag: string, options: ShellRunOptions): Promise<ShellRunResult> {
    return new Promise<ShellRunResult>((resolve) => {
      const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
      this.child = child;
      const decoder = new StringDecoder('utf8');
      const errDecoder = new StringDecoder('utf8');
      let stateText = '';
      let ended: 'timeout' | 'cancelled' | undefined;
      let exitCode: number | undefined;
      let exited = false;
      let open = 3;
      let finished = false;
      let grace: NodeJS.Timeout | undefined;
      child.stdout!.on('data', (data: Buffer) => options.onOutput(decoder.write(data)));
      child.stderr!.on('data', (data: Buffer) => options.onOutput(errDecoder.write(data)));
      const state = child.stdio[3] as NodeJS.ReadableStream;
      let started = false;
      state.on('data', (data: Buffer) => {
        // The first state bytes say the command itself starts: the sandbox's set-up is not its time.
        if (!started) {
          started = true;
          if (!ended && !exited) {
            clearTimeout(timer);
            timer = setTimeout(() => stop('timeout'), options.timeoutMs);
          }
        }
        if (stateText.length < 4 * 1024 * 1024) stateText += data.toString('utf8');
      });
      const finish = () => {
        if (finished || !exited || open > 0) return;
        finished = true;
        clearTimeout(timer);
        clearTimeout(grace);
        options.signal?.removeEventListener('abort', onAbort);
        if (this.child === child) this.child = undefined;
        const rest = decoder.end() + errDecoder.end();
        if (rest) options.onOutput(rest);
        if (ended) {
          this.state = { cwd: this.initial.cwd, env: { ...this.initial.env } };
          resolve({ exitCode: undefined, ended });
          return;
        }
        const next = parseState(stateText, this.state);
        if (!next) {
          // The command ended its bash (`exit`, `exec`): like a shell that exited, start afresh.
          this.state = { cwd: this.initial.cwd, env: { ...this.initial.env } };
          resolve({ exitCode, ended: 'exited' });
          return;
        }
        this.state = next;
        resolve({ exitCode });
      };
      for (const stream of [child.stdout!, child.stderr!, state]) {
        stream.on('close', () => {
          open--;
          finish();
        });
        stream.on('error', () => undefined);
      }
      const onExit = (code: number | null) => {
        if (exited) return;
        exited = true;
        exitCode = code ?? undefined;
        // Whatever the command left behind ends with it (its group; without a sandbox, its tag).
        killGroup(child.pid);
        if (!this.options.sandbox) killTagged(tag);
        grace = setTimeout(() => {
          for (const stream of [child.stdout!, child.stderr!, state]) (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
        }, PIPE_GRACE_MS);
        finish();
      };
      child.on('exit', onExit);
      child.on('error', () => {
        open = 0;
        onExit(127);
      });
      const stop = (why: 'timeout' | 'cancelled') => {
        if (exited || ended) return;
        ended = why;
        killGroup(child.pid);
        if (!this.options.sandbox) killTagged(tag);
      };
      const onAbort = () => stop('cancelled');
      let timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) onAbort();
    });
  }

  private killRunning(why: undefined): void {
    void why;
    const child = this.child;
    if (!child) return;
    killGroup(child.pid);
  }
}

/** The state the command's bash reported (before NUL-list, marker, PWD, after NUL-list), applied to `previous`. */
function parseState(text: string, previous: State): State | undefined {
  const entries = text.split('\0');
  const at = entries.indexOf(AFTER);
  if (at < 0 || entries.length < at + 3) return undefined;
  const before = toMap(entries.slice(0, at));
  const cwd = entries[at + 1];
  const after = toMap(entries.slice(at + 2));
  const env = { ...previous.env };
  for (const [name, value] of after) {
    if (before.get(name) !== value && !isUnsafeToCarry(name)) env[name] = value;
  }
  for (const name of before.keys()) {
    if (!after.has(name) && !isUnsafeToCarry(name)) delete env[name];
  }
  return { cwd: path.isAbsolute(cwd) && isDirectory(cwd) ? cwd : previous.cwd, env };
}

function toMap(entries: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq > 0) map.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return map;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Shells running a command: when this process exits, however it exits, their commands are killed first. */
const runningShells = new Set<PersistentShell>();
let exitHandler = false;

function killedOnExit(shell: PersistentShell): void {
  runningShells.add(shell);
  if (exitHandler) return;
  exitHandler = true;
  // 'exit' handlers run on process.exit() and on a normal end; signals reach one through the
  // CLI's handlers (cli/signals.ts), and a SIGKILL leaves the sandbox to --die-with-parent.
  process.on('exit', () => {
    for (const running of runningShells) running.killNow();
  });
}

let shells: string | undefined;

/**
 * The folder of every shell's private folder (`<tmp>/claude-memory-shells-<uid>`, owner-only):
 * the sandbox hides it from commands but for their own shell's, so no command reads another
 * run's TMPDIR or commands. A folder of that name that is not ours (a link, another owner) is
 * passed over for a fresh one.
 */
export function shellsRoot(): string {
  if (shells !== undefined && isOwnFolder(shells)) return shells;
  const uid = process.getuid?.() ?? 0;
  const named = path.join(os.tmpdir(), `claude-memory-shells-${uid}`);
  try {
    fs.mkdirSync(named, { mode: 0o700 });
  } catch {
    // There already (ours from an earlier run, or someone else's: checked below).
  }
  shells = isOwnFolder(named) ? fs.realpathSync(named) : fs.realpathSync(fs.mkdtempSync(`${named}-`));
  return shells;
}

function isOwnFolder(dir: string): boolean {
  try {
    const stat = fs.lstatSync(dir);
    return stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** SIGKILL to a whole process group. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Kills every process whose environment carries the command's tag (Linux /proc; repeated while new ones appear). */
function killTagged(tag: string): void {
  if (process.platform !== 'linux') return;
  const needle = Buffer.from(`${TAG_NAME}=${tag}\0`);
  for (let round = 0; round < 5; round++) {
    let found = 0;
    let pids: string[];
    try {
      pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    } catch {
      return;
    }
    for (const name of pids) {
      const pid = Number(name);
      if (pid === process.pid) continue;
      try {
        if (fs.readFileSync(`/proc/${name}/environ`).includes(needle)) {
          process.kill(pid, 'SIGKILL');
          found++;
        }
      } catch {
        // Gone, or not ours to read.
      }
    }
    if (found === 0) return;
  }
}

/** Single-quotes a path for the shell (the temp path is ours, but never trust a path in a command). */
function quote(text: string): string {
  return `'${text.split("'").join(`'\\''`)}'`;
}
