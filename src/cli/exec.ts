import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { AUTHORS, DEFAULT_STORE_FOLDER, isFsError, isLinkedRootError } from '../core/memory';
import { DEFAULT_HISTORY_RETENTION } from '../core/memory/history/types';
import { createNodeMemoryEngine, type NodeMemoryEngineOptions } from '../platform/node/nodeMemoryEngine';
import { CLI_NAME, oneLine, parseOptions, parsePositiveInteger, startCommand, UsageError } from './args';
import { execJsonLines } from './jsonLines';
import { signalExitCode, stopOnSignals } from './signals';

/** The store folder inside a workspace, as in the extension. */
export const STORE_FOLDER = DEFAULT_STORE_FOLDER;

/** What both commands say about the guards and the lock (the extension's defaults). */
export const GUARDS_HELP = `Like the extension, it applies the checklist guards by default: ${STORE_FOLDER}/features.json
may only have "passes" flipped and new (not yet passing) features appended, and progress.md
may only grow at its end. Writers of one store (VS Code windows, other ${CLI_NAME} commands)
take turns through a lock file in ${STORE_FOLDER}/.meta.`;

/** The engine options `exec` and `mcp` share (parseStoreCommandArgs), as their usage lists them. */
export const STORE_OPTIONS_HELP = `      --max-file-bytes N  Largest file a write may produce (default: 1 MiB).
      --quota-bytes N     Largest total size of the store (default: 50 MiB).
      --create-policy P   'error' (default): create refuses an existing file; 'overwrite' replaces it.
      --no-redact         Keep secret-looking strings instead of replacing them with [REDACTED:...].
      --no-guards         Turn off the checklist guards (features.json and progress.md change freely).
      --no-history        Keep no versions of the changes (by default every change is kept).
      --history-max-versions N, --history-max-days N, --history-max-bytes N
                          History's retention: versions per file (50), days (30), total bytes (20 MiB).`;

export const EXEC_USAGE = `Usage: ${CLI_NAME} exec [--workspace DIR] [options]

Reads memory tool inputs as JSON Lines from stdin, e.g.
  {"command":"view","path":"/memories"}
runs them in order against DIR/${STORE_FOLDER} (created if missing) and writes one line
  {"is_error":false,"content":"..."}
per input to stdout. Blank lines are skipped; a bad line gets an error line and the rest still run.
Every change is kept as a version by the author 'exec' (see '${CLI_NAME} history').
${GUARDS_HELP}

Options:
  -w, --workspace DIR     Workspace folder (default: the current folder).
${STORE_OPTIONS_HELP}
  -h, --help              Show this help.
`;

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  cwd: string;
}

const processIo = (): CliIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });

/** `claude-memory exec`: returns the process exit code (0 done, 1 failure, 2 usage). */
export async function execCommand(argv: string[], io: CliIo = processIo()): Promise<number> {
  const start = startCommand('exec', EXEC_USAGE, argv, parseStoreCommandArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args: parsed, workspace } = start;
  const reportInternal = (e: unknown) => io.stderr.write(`${CLI_NAME} exec: internal error: ${oneLine(e)}\n`);
  const { fs: store, engine } = createNodeMemoryEngine(path.join(workspace, STORE_FOLDER), {
    ...parsed.engineOptions,
    author: AUTHORS.exec,
    onInternalError: reportInternal,
  });
  try {
    // The documented behaviour: the root exists before the first call, so `view /memories` works.
    await store.createDirectory('');
  } catch (e) {
    io.stderr.write(`${CLI_NAME} exec: cannot use ${path.join(workspace, STORE_FOLDER)} as the memory store: ${storeProblem(e)}\n`);
    return 1;
  }

  // SIGINT, SIGTERM and SIGHUP: the call in progress finishes, no further line is read (signals.ts).
  const stop = io.stdin === process.stdin ? stopOnSignals() : undefined;
  try {
    await execJsonLines(engine, io.stdin, io.stdout, { onInternalError: reportInternal, signal: stop?.signal });
  } catch (e) {
    // A closed stdout (e.g. `| head`) is the reader's choice, not an error worth a message.
    if ((e as NodeJS.ErrnoException).code !== 'EPIPE') io.stderr.write(`${CLI_NAME} exec: ${oneLine(e)}\n`);
    return 1;
  } finally {
    stop?.dispose();
  }
  const received = stop?.received();
  return received === undefined ? 0 : signalExitCode(received);
}

/**
 * The options `exec` and `mcp` share: the store and the engine's settings (see
 * core/memory/storeSettings.ts; the extension passes the user's settings with storeSettingsArgs).
 */
export function parseStoreCommandArgs(argv: string[]) {
  const { values } = parseOptions(argv, {
    workspace: { type: 'string', short: 'w' },
    'max-file-bytes': { type: 'string' },
    'quota-bytes': { type: 'string' },
    'create-policy': { type: 'string' },
    'no-redact': { type: 'boolean' },
    'no-guards': { type: 'boolean' },
    'no-history': { type: 'boolean' },
    'history-max-versions': { type: 'string' },
    'history-max-days': { type: 'string' },
    'history-max-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const engineOptions: NodeMemoryEngineOptions = { guards: values['no-guards'] !== true };
  if (values['max-file-bytes'] !== undefined) engineOptions.maxFileBytes = parsePositiveInteger('max-file-bytes', values['max-file-bytes']);
  if (values['quota-bytes'] !== undefined) engineOptions.quotaBytes = parsePositiveInteger('quota-bytes', values['quota-bytes']);
  const policy = values['create-policy'];
  if (policy !== undefined) {
    if (policy !== 'error' && policy !== 'overwrite') throw new UsageError(`--create-policy takes 'error' or 'overwrite', got '${policy}'`);
    engineOptions.createPolicy = policy;
  }
  if (values['no-redact']) engineOptions.redactSecrets = false;
  const retentionFlags = ['history-max-versions', 'history-max-days', 'history-max-bytes'] as const;
  if (values['no-history']) {
    const given = retentionFlags.find((f) => values[f] !== undefined);
    if (given !== undefined) throw new UsageError(`--no-history and --${given} cannot go together`);
    engineOptions.history = false;
  } else if (retentionFlags.some((f) => values[f] !== undefined)) {
    const value = (flag: (typeof retentionFlags)[number], fallback: number) => (values[flag] === undefined ? fallback : parsePositiveInteger(flag, values[flag]));
    engineOptions.history = {
      maxVersionsPerFile: value('history-max-versions', DEFAULT_HISTORY_RETENTION.maxVersionsPerFile),
      maxDays: value('history-max-days', DEFAULT_HISTORY_RETENTION.maxDays),
      maxBytes: value('history-max-bytes', DEFAULT_HISTORY_RETENTION.maxBytes),
    };
  }
  return { help: values.help === true, workspace: values.workspace, engineOptions };
}

/** Why the memory store cannot be used, for the user's terminal. */
export function storeProblem(e: unknown): string {
  if (isLinkedRootError(e)) return 'it is a symbolic link; a memory folder must be a real folder (memory never goes through a link, which a cloned repository could point anywhere).';
  if (isFsError(e, 'FileExists') || isFsError(e, 'FileNotADirectory')) return 'it exists and is not a folder.';
  if (isFsError(e, 'NoPermissions')) return 'permission denied.';
  return oneLine(e);
}

export { oneLine };
