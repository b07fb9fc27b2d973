import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The CLI's name as users type it (package.json "bin"). */
export const CLI_NAME = 'claude-memory';

export const MAIN_USAGE = `Usage: ${CLI_NAME} <command> [options]

Commands:
  exec    Run memory tool calls read as JSON Lines from stdin against <workspace>/.claude-memories
          and write one JSON result per line to stdout.
  run     Run a Claude session with the memory tool (see '${CLI_NAME} run --help').

Options:
  -h, --help      Show this help.
  -v, --version   Show the version.
`;

/** A command-line mistake: reported as one sentence plus usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * node:util parseArgs in strict mode, with its errors turned into UsageError (its messages are
 * plain sentences about the arguments, never stacks or paths of ours).
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (e) {
    const message = e instanceof Error ? e.message.split('. To specify')[0] : String(e);
    throw new UsageError(message);
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
      if (pkg.name === 'claude-workspace-memory' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No (readable) package.json at this level: keep walking up.
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
