/** `claude-memory mcp`: the workspace memory as an MCP server on stdin/stdout. */
import { CLI_NAME, PACKAGE_NAME, readVersion, startCommand } from '../args';
import { oneLine, parseStoreCommandArgs, STORE_OPTIONS_HELP, storeProblem, type CliIo } from '../exec';
import { LineTransport } from './lineTransport';
import { createMemoryServer } from './memoryServer';
import { openCliStore } from './openStore';
import { watchStore } from './storeWatcher';
import { signalExitCode, stopOnSignals } from '../signals';

export const MCP_USAGE = `Usage: ${CLI_NAME} mcp [--workspace DIR] [options]

Serves DIR/.claude-memories (created if missing) to any MCP client over stdio: one tool,
workspace_memory (the memory tool's commands), and the memory files as resources
(memory:///memories/...). stdout carries only protocol messages; logs go to stderr.
Every change is kept as a version by the author 'mcp:<client name>' (see '${CLI_NAME} history').
Add it to Claude Code with:
  claude mcp add workspace-memory -- ${CLI_NAME} mcp --workspace /path/to/project

Options:
  -w, --workspace DIR     Workspace folder (default: the current folder).
${STORE_OPTIONS_HELP}
  -h, --help              Show this help.
`;

const processIo = (): CliIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });

/** Resolves with the exit code once the client closes stdin (0), or at once on a usage/store problem. */
export async function mcpCommand(argv: string[], io: CliIo = processIo()): Promise<number> {
  const start = startCommand('mcp', MCP_USAGE, argv, parseStoreCommandArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  const log = (line: string) => io.stderr.write(`${CLI_NAME} mcp: ${line}\n`);
  // stdout belongs to the protocol: anything a dependency prints goes to the log instead.
  if (io.stdout === process.stdout) console.log = console.info = console.debug = (...a: unknown[]) => log(a.map(String).join(' '));

  const onInternalError = (e: unknown) => log(`internal error: ${oneLine(e)}`);
  let store;
  try {
    store = await openCliStore(workspace, { ...args.engineOptions, onInternalError });
  } catch (e) {
    log(`cannot use the memory store in ${workspace}: ${storeProblem(e)}`);
    return 1;
  }
  const memory = createMemoryServer({ name: PACKAGE_NAME, version: readVersion(), engine: store.engine, fs: store.fs, onInternalError, redactSecrets: store.engine.options.redactSecrets });
  const transport = new LineTransport(io.stdin, io.stdout, { onBadLine: (why) => log(`answered a bad message: ${why}`) });
  const closed = new Promise<void>((resolve) => (memory.session.onclose = resolve));
  // The store is watched once the client says it is initialized (notifications are for a session
  // that is set up): setting up a recursive watch walks the store, which the answer to
  // `initialize` need not wait for.
  let watcher: { close(): void } | undefined;
  memory.session.oninitialized = () => {
    watcher ??= watchStore(
      store.root,
      () => void memory.storeChanged().catch((e: unknown) => log(`change notification failed: ${oneLine(e)}`)),
      (e) => log(`not watching the store for changes: ${oneLine(e)}`),
    );
  };
  // SIGINT, SIGTERM and SIGHUP: what was read is answered, then the server ends (signals.ts).
  const stop = stopOnSignals((signal) => {
    log(`stopping on ${signal}`);
    transport.stopReading();
  });
  try {
    await memory.session.connect(transport);
    await closed;
  } finally {
    watcher?.close();
    stop.dispose();
  }
  const received = stop.received();
  return received === undefined ? 0 : signalExitCode(received);
}

