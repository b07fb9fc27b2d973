/** `claude-memory history [PATH]`: the store's versions (or one file's), oldest first. */
import { displayOf, historyRecordJson, type HistoryEntry } from '../core/memory';
import { userFacingReason } from '../core/memory/errors';
import { CLI_NAME, type CommandStartIo, parseOptions, startCommand, UsageError } from './args';
import { oneLine, STORE_FOLDER } from './exec';
import { authorLabel, columns, entryPathLabel, localTime, memoryPathArg, openHistoryStore, processOutputIo } from './storeHistory';

export const HISTORY_USAGE = `Usage: ${CLI_NAME} history [--workspace DIR] [--json] [PATH]

Lists the versions kept in DIR/${STORE_FOLDER}/.meta/history, oldest first: one line per
change with its version number, local time, operation, path and author (chat, run, exec,
mcp:<client>, lm-tool, user, expiry). With PATH (/memories/notes.md or notes.md) only that
file's versions, following renames back to its earlier names. Bring one back with
'${CLI_NAME} restore PATH --version N'.

Options:
  -w, --workspace DIR   Workspace folder (default: the current folder).
      --json            Print one JSON array of {version, path, op, author, time, sha256, size}
                        (plus oldPath for a rename, session and turn for a chat).
  -h, --help            Show this help.
`;

export async function historyCommand(argv: string[], io: CommandStartIo = processOutputIo()): Promise<number> {
  const start = startCommand('history', HISTORY_USAGE, argv, parseHistoryArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  const fail = (why: string) => {
    io.stderr.write(`${CLI_NAME} history: ${why}\n`);
    return 1;
  };
  let rel: string | undefined;
  try {
    rel = args.path === undefined ? undefined : memoryPathArg(args.path).rel;
  } catch (e) {
    return fail(userFacingReason(e));
  }
  if (rel === '') return fail(`${args.path} is the memory folder itself: name a file, or leave PATH out for every version.`);
  const { engine } = openHistoryStore(workspace, (e) => io.stderr.write(`${CLI_NAME} history: internal error: ${oneLine(e)}\n`));
  let entries: readonly HistoryEntry[];
  try {
    entries = rel === undefined ? await engine.history() : await engine.fileHistory(rel);
  } catch (e) {
    return fail(`cannot read the history: ${oneLine(e)}`);
  }
  if (args.json) {
    io.stdout.write(`${JSON.stringify(entries.map((e) => historyRecordJson(e, displayOf)), null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    io.stdout.write(rel === undefined ? 'No versions in the history yet.\n' : `No versions of ${displayOf(rel)} in the history.\n`);
    return 0;
  }
  const rows = entries.map((e) => [`v${e.version}`, localTime(e.time), e.op, entryPathLabel(e), authorLabel(e.author)]);
  io.stdout.write(columns([['VERSION', 'TIME', 'OP', 'PATH', 'AUTHOR'], ...rows]));
  return 0;
}

function parseHistoryArgs(argv: string[]) {
  const { values, positionals } = parseOptions(
    argv,
    {
      workspace: { type: 'string', short: 'w' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (positionals.length > 1) throw new UsageError(`one PATH at most, got ${positionals.length}`);
  return { help: values.help === true, workspace: values.workspace, json: values.json === true, path: positionals[0] };
}
