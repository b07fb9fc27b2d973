// `claude-memory`: the headless CLI over the same core as the extension (bundled to dist/cli.js).
import { CLI_NAME, MAIN_USAGE, readVersion } from './args';
import { execCommand, oneLine } from './exec';
import { expireCommand } from './expire';
import { historyCommand } from './history';
import { restoreCommand } from './restore';

type Command = (argv: string[]) => Promise<number>;

// Each command loads what it needs when it runs: `mcp` the MCP SDK, `run` the Anthropic SDK and
// the shell parser (through the agent and the bash tool); `exec` neither, so it starts fast.
const mcpCommand: Command = async (argv) => (await import('./mcp/command')).mcpCommand(argv);
const runCommand: Command = async (argv) => (await import('./run')).runCommand(argv);

const COMMANDS: Readonly<Record<string, Command>> = {
  exec: execCommand,
  run: runCommand,
  mcp: mcpCommand,
  history: historyCommand,
  restore: restoreCommand,
  expire: expireCommand,
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
