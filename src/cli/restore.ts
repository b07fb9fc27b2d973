/**
 * `claude-memory restore PATH --version N`: the file's content becomes version N's, recorded as
 * a new `restore` version by `user` (whoever runs the CLI by hand); a deleted file comes back.
 */
import { displayOf, FileType } from '../core/memory';
import { isMemoryError, userFacingReason } from '../core/memory/errors';
import { CLI_NAME, type CommandStartIo, parseOptions, parsePositiveInteger, startCommand, UsageError } from './args';
import { oneLine, STORE_FOLDER } from './exec';
import { memoryPathArg, openHistoryStore, processOutputIo } from './storeHistory';

export const RESTORE_USAGE = `Usage: ${CLI_NAME} restore [--workspace DIR] PATH --version N

Gives the memory file PATH (/memories/notes.md or notes.md) in DIR/${STORE_FOLDER} the content
it had at version N (see '${CLI_NAME} history PATH'). A deleted file comes back. The restore is
recorded as a new version by the author 'user', so it can be undone in turn; the versions in
between stay in the history.

Options:
  -w, --workspace DIR   Workspace folder (default: the current folder).
      --version N       The version to bring back (required).
  -h, --help            Show this help.
`;

export async function restoreCommand(argv: string[], io: CommandStartIo = processOutputIo()): Promise<number> {
  const start = startCommand('restore', RESTORE_USAGE, argv, parseRestoreArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  const fail = (why: string) => {
    io.stderr.write(`${CLI_NAME} restore: ${why}\n`);
    return 1;
  };
  let rel: string;
  try {
    rel = memoryPathArg(args.path).rel;
  } catch (e) {
    return fail(userFacingReason(e));
  }
  if (rel === '') return fail(`${args.path} is the memory folder itself, not a file.`);
  const shown = displayOf(rel);
  const { engine, fs } = openHistoryStore(workspace, (e) => io.stderr.write(`${CLI_NAME} restore: internal error: ${oneLine(e)}\n`));
  try {
    const stat = await fs.stat(rel).catch(() => undefined);
    if (stat !== undefined && (stat.type & FileType.Directory) !== 0) return fail(`${shown} is a folder: name a file in it (see '${CLI_NAME} history').`);
    const all = await engine.history();
    const entry = all.find((e) => e.version === args.version);
    if (entry === undefined) {
      const newest = all.at(-1)?.version ?? 0;
      return fail(
        args.version > newest
          ? `there is no version ${args.version} (the newest is ${newest === 0 ? 'none: the history is empty' : newest}).`
          : `version ${args.version} is no longer in the history (retention pruned it).`,
      );
    }
    // A version of another file would silently overwrite this one with unrelated content.
    if (!(await engine.fileHistory(rel)).some((e) => e.version === args.version)) {
      return fail(`version ${args.version} is a version of ${displayOf(entry.path)}, not of ${shown} (see '${CLI_NAME} history ${shown}').`);
    }
    const recorded = await engine.restore(rel, args.version);
    io.stdout.write(
      recorded === undefined
        ? `${shown} already holds version ${args.version}: nothing changed.\n`
        : `Restored ${shown} to version ${args.version} (recorded as version ${recorded}).\n`,
    );
    return 0;
  } catch (e) {
    return fail(isMemoryError(e) ? userFacingReason(e) : oneLine(e));
  }
}

function parseRestoreArgs(argv: string[]) {
  const { values, positionals } = parseOptions(
    argv,
    {
      workspace: { type: 'string', short: 'w' },
      version: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  const help = values.help === true;
  if (help) return { help, workspace: values.workspace, path: '', version: 0 };
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'PATH is missing' : `one PATH only, got ${positionals.length}`);
  if (values.version === undefined) throw new UsageError('--version N is missing');
  return { help, workspace: values.workspace, path: positionals[0], version: parsePositiveInteger('version', values.version) };
}
