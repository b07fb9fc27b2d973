import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The CLI's name as users type it (package.json "bin"). */
export const CLI_NAME = 'claude-memory';

/** package.json "name": how the CLI finds its package.json, and the MCP server's name. */
export const PACKAGE_NAME = 'claude-workspace-memory';

export const MAIN_USAGE = `Usage: ${CLI_NAME} <command> [options]

Commands:
  exec    Run memory tool calls read as JSON Lines from stdin against <workspace>/.claude-memories
          and write one JSON result per line to stdout.
  run     Run a Claude session with the memory tool (see '${CLI_NAME} run --help').
  mcp     Serve the workspace memory to any MCP client over stdio (see '${CLI_NAME} mcp --help').
  history List the versions of the memory files (or of one file), with their authors.
  restore Give a memory file the content of an earlier version (a deleted file comes back).
  expire  Delete memory files nobody has used for a long time (restorable from history).
  checkpoints  List the checkpoints taken before every chat message and run prompt.
  rewind  Bring the workspace files and memory back to a checkpoint.

Options:
  -h, --help      Show this help.
  -v, --version   Show the version.
`;

/** A command-line mistake: reported as one sentence plus usage, exit code 2. */
/** An error as one line for the user's terminal: its message, never its stack. */
export function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0] ?? '';
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * node:util parseArgs in strict mode, with its errors turned into UsageError (its messages are
 * plain sentences about the arguments, never stacks or paths of ours). Positional arguments are
 * refused unless `allowPositionals` is true.
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>, P extends boolean = false>(
  argv: string[],
  options: T,
  allowPositionals?: P,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: (allowPositionals ?? false) as P });
  } catch (e) {
    const message = e instanceof Error ? e.message.split('. To specify')[0] : String(e);
    throw new UsageError(message);
  }
}

/** The parts of a subcommand's I/O that startCommand uses. */
export interface CommandStartIo {
  stdout: Writable;
  stderr: Writable;
  cwd: string;
}

/** What every subcommand's parser returns at least. */
export interface CommandArgs {
  help: boolean;
  /** As given (relative to the cwd), undefined for the cwd itself. */
  workspace?: string;
}

/**
 * The start every subcommand shares: parse `argv` (a UsageError prints its sentence and `usage`
 * to stderr: exit 2), answer --help (usage to stdout: exit 0), and resolve the workspace folder
 * against the cwd (missing or not a folder: one line, exit 1). Returns the parsed arguments and
 * the absolute workspace, or the exit code the command ends with.
 */
export function startCommand<A extends CommandArgs>(
  command: string,
  usage: string,
  argv: string[],
  parse: (argv: string[]) => A,
  io: CommandStartIo,
): { args: A; workspace: string } | { exitCode: number } {
  let args: A;
  try {
    args = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`${CLI_NAME} ${command}: ${e.message}\n\n${usage}`);
    return { exitCode: 2 };
  }
  if (args.help) {
    io.stdout.write(usage);
    return { exitCode: 0 };
  }
  const workspace = path.resolve(io.cwd, args.workspace ?? '.');
  if (!isDirectory(workspace)) {
    io.stderr.write(`${CLI_NAME} ${command}: the workspace folder ${workspace} does not exist or is not a folder.\n`);
    return { exitCode: 1 };
  }
  return { args, workspace };
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A whole positive number given on the command line. */
export function parsePositiveInteger(flag: string, value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} takes a positive whole number, got '${value}'`);
  }
  return Number(value);
}

/**
 * The package version, read from the package.json above this file: it sits one level up from
 * dist/cli.js and three levels up from the tsc output in out/src/cli/, so walk up to find it.
 */
export function readVersion(startDir: string = __dirname): string {
  let dir = startDir;
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No (readable) package.json at this level: keep walking up.
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
