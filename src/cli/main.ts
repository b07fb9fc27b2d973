// `claude-memory`: the headless CLI over the same core as the extension (bundled to dist/cli.js).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI_NAME, MAIN_USAGE, oneLine, readVersion } from './args';
import { requireWithCodeCache } from './codeCache';

type Command = (argv: string[]) => Promise<number>;

// Each command loads what it needs when it runs, from its own bundle: `mcp` the MCP SDK, `run` the
// Anthropic SDK and the shell parser (through the agent and the bash tool), the store commands
// (exec and the rest) the engine and the secret rules; this entry is only the dispatcher.
// `require`, not `import()`: the bundles are CommonJS, and a dynamic import goes through Node's
// ESM loader, which first scans the whole megabyte of a CommonJS file for its export names
// (cjs-module-lexer) before running it: about a third of `mcp`'s start.
/* eslint-disable @typescript-eslint/no-require-imports */
const mcpCommand: Command = async (argv) =>
  ((bundled('cli-mcp.js') ?? require('./mcp/command')) as typeof import('./mcp/command')).mcpCommand(argv);
// Plain `require` for `run` (a long task, where the start hardly counts): a dynamic import in its
// sandbox runtime's proxy fails when the bundle is compiled by vm.Script.
const runCommand: Command = async (argv) => (require('./run') as typeof import('./run')).runCommand(argv);
const storeCommands = () => (bundled('cli-store.js') ?? require('./storeCommands')) as typeof import('./storeCommands');
const execCommand: Command = (argv) => storeCommands().execCommand(argv);
const historyCommand: Command = (argv) => storeCommands().historyCommand(argv);
const restoreCommand: Command = (argv) => storeCommands().restoreCommand(argv);
const expireCommand: Command = (argv) => storeCommands().expireCommand(argv);
const checkpointsCommand: Command = (argv) => storeCommands().checkpointsCommand(argv);
const rewindCommand: Command = (argv) => storeCommands().rewindCommand(argv);
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * In the bundled CLI, the sibling bundle loaded through the V8 code cache (codeCache.ts: its second
 * start skips the compile); undefined when running from the compiled sources (tests).
 */
function bundled(file: string): unknown {
  const bundle = path.join(__dirname, file);
  return fs.existsSync(bundle) ? requireWithCodeCache(bundle) : undefined;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  exec: execCommand,
  run: runCommand,
  mcp: mcpCommand,
  history: historyCommand,
  restore: restoreCommand,
  expire: expireCommand,
  checkpoints: checkpointsCommand,
  rewind: rewindCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(MAIN_USAGE);
    return 0;
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  const command = first === undefined ? undefined : Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (command === undefined) {
    const why = first === undefined ? 'no command given' : `unknown command '${first}'`;
    process.stderr.write(`${CLI_NAME}: ${why}\n\n${MAIN_USAGE}`);
    return 2;
  }
  return command(rest);
}

// Last resort for anything that escapes the promise chain (e.g. a stream error event): one line.
const fail = (e: unknown) => {
  process.stderr.write(`${CLI_NAME}: ${oneLine(e)}\n`);
  process.exit(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // The command is done: nothing it left behind (a helper of the OS sandbox that outlived the
    // runtime's reset kept a run alive once) may keep the CLI from exiting. Unref'd, so a clean
    // end exits at once and output already written has this long to drain.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  fail,
);
