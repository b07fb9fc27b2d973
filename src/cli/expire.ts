/**
 * `claude-memory expire`: one expiry sweep, as the memory tool's documentation asks of a client:
 * files no agent has used for more than --days days are deleted as `delete` versions by
 * `expiry`, so `claude-memory restore` brings any of them back. The checklist files and pinned
 * files never expire.
 */
import { DEFAULT_EXPIRY_DAYS, displayOf, type ExpiredFile } from '../core/memory';
import { isMemoryError, userFacingReason } from '../core/memory/errors';
import { SESSION_FILES } from '../core/session/memoryFiles';
import { CLI_NAME, type CommandStartIo, parseOptions, startCommand, UsageError } from './args';
import { oneLine, STORE_FOLDER } from './exec';
import { columns, localTime, openHistoryStore, processOutputIo } from './storeHistory';

export const EXPIRE_USAGE = `Usage: ${CLI_NAME} expire [--workspace DIR] [--days N] [--dry-run] [--json]

Runs one expiry sweep over DIR/${STORE_FOLDER}: every memory file unused for more than N days is
deleted. Used means written, or read by an agent (view through the chat, run, exec, MCP or the
Language Model tool); reads in the editor do not count. Each deletion is recorded in the history
by the author 'expiry', so '${CLI_NAME} restore PATH --version N' brings the file back.
${Object.values(SESSION_FILES).join(', ')} and pinned files never expire.

Options:
  -w, --workspace DIR   Workspace folder (default: the current folder).
      --days N          Days without use before a file expires (default: ${DEFAULT_EXPIRY_DAYS}, as the
                        claudeMemory.expiry.days setting; 0 turns expiry off).
      --dry-run         Only list what would expire; change nothing.
      --json            Print one JSON array of {path, lastUsed, idleDays} for what expired
                        (or would expire with --dry-run).
  -h, --help            Show this help.
`;

export async function expireCommand(argv: string[], io: CommandStartIo = processOutputIo()): Promise<number> {
  const start = startCommand('expire', EXPIRE_USAGE, argv, parseExpireArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  const { engine } = openHistoryStore(workspace, (e) => io.stderr.write(`${CLI_NAME} expire: internal error: ${oneLine(e)}\n`));
  let files: ExpiredFile[];
  try {
    files = await engine.expire({ days: args.days, keep: Object.values(SESSION_FILES), dryRun: args.dryRun });
  } catch (e) {
    io.stderr.write(`${CLI_NAME} expire: ${isMemoryError(e) ? userFacingReason(e) : oneLine(e)}\n`);
    return 1;
  }
  if (args.json) {
    const json = files.map((f) => ({ path: displayOf(f.rel), lastUsed: new Date(f.lastUsed).toISOString(), idleDays: f.idleDays }));
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  if (args.days === 0) {
    io.stdout.write('Expiry is off (--days 0): nothing deleted.\n');
    return 0;
  }
  if (files.length === 0) {
    io.stdout.write(`No memory file has gone unused for more than ${args.days} days: nothing ${args.dryRun ? 'would expire' : 'expired'}.\n`);
    return 0;
  }
  const count = `${files.length} memory file${files.length === 1 ? '' : 's'}`;
  io.stdout.write(
    args.dryRun
      ? `${count} would expire (unused for more than ${args.days} days; nothing changed):\n`
      : `${count} expired (unused for more than ${args.days} days); '${CLI_NAME} history PATH' and '${CLI_NAME} restore' bring them back:\n`,
  );
  io.stdout.write(columns(files.map((f) => [`  ${displayOf(f.rel)}`, `last used ${localTime(f.lastUsed)}`, `(${f.idleDays} days ago)`])));
  return 0;
}

function parseExpireArgs(argv: string[]) {
  const { values } = parseOptions(argv, {
    workspace: { type: 'string', short: 'w' },
    days: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  let days = DEFAULT_EXPIRY_DAYS;
  if (values.days !== undefined) {
    if (!/^[0-9]+$/.test(values.days) || !Number.isSafeInteger(Number(values.days))) {
      throw new UsageError(`--days takes a whole number of days (0 turns expiry off), got '${values.days}'`);
    }
    days = Number(values.days);
  }
  return { help: values.help === true, workspace: values.workspace, days, dryRun: values['dry-run'] === true, json: values.json === true };
}
