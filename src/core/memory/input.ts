/**
 * Validation of the raw tool input (`unknown`, straight from the model) into the typed command
 * union. Each failure is one sentence naming the parameter. Unknown extra fields are ignored.
 */
import { MemoryError } from './errors';
import { COMMAND_NAMES, messages } from './messages';
import type { MemoryCommandInput, MemoryCommandName } from './types';

type Kind = 'string' | 'integer' | 'range';
/** The parameters of one command: their kinds, and which may be left out. */
export type ParamSpec = Readonly<Record<string, { kind: Kind; optional?: boolean }>>;

const SPECS: { readonly [K in MemoryCommandName]: ParamSpec } = {
  view: { path: { kind: 'string' }, view_range: { kind: 'range', optional: true } },
  create: { path: { kind: 'string' }, file_text: { kind: 'string' } },
  str_replace: { path: { kind: 'string' }, old_str: { kind: 'string' }, new_str: { kind: 'string', optional: true } },
  insert: { path: { kind: 'string' }, insert_line: { kind: 'integer' }, insert_text: { kind: 'string' } },
  delete: { path: { kind: 'string' } },
  rename: { old_path: { kind: 'string' }, new_path: { kind: 'string' } },
};

const EXPECTED: Record<Kind, string> = {
  string: 'a string',
  integer: 'an integer',
  range: 'an array of two integers, [start_line, end_line] (end_line -1 means the end of the file)',
};

export function parseInput(input: unknown): MemoryCommandInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new MemoryError(messages.inputNotObject);
  }
  const record = input as Record<string, unknown>;
  const command = record.command;
  if (command === undefined || command === null) {
    throw new MemoryError(messages.commandMissing);
  }
  if (typeof command !== 'string' || !(COMMAND_NAMES as readonly string[]).includes(command)) {
    throw new MemoryError(messages.unknownCommand(describeValue(command)));
  }
  const name = command as MemoryCommandName;
  return readParams(record, name, SPECS[name]) as MemoryCommandInput;
}

/**
 * The typed parameters of `command` out of a raw input record (shared by every tool whose input
 * is a command with parameters): each failure is one sentence naming the parameter; unknown extra
 * fields are dropped; an empty `old_str` is refused.
 */
export function readParams(record: Record<string, unknown>, command: string, params: ParamSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { command };
  for (const [param, spec] of Object.entries(params)) {
    const value = record[param];
    // JSON null for an optional parameter means "not given".
    if (value === undefined || value === null) {
      if (spec.optional) continue;
      throw new MemoryError(messages.paramRequired(param, command));
    }
    if (!matches(spec.kind, value)) {
      throw new MemoryError(messages.paramType(param, command, EXPECTED[spec.kind]));
    }
    out[param] = value;
  }
  if (command === 'str_replace' && out.old_str === '') {
    throw new MemoryError(messages.emptyOldStr);
  }
  return out;
}

function matches(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'range':
      return Array.isArray(value) && value.length === 2 && value.every((v) => Number.isSafeInteger(v));
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `\`${JSON.stringify(short).slice(1, -1)}\``;
  }
  return `of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
