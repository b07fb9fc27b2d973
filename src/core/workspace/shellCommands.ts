/**
 * Splits a bash command line into the parts that must each be allowed before it runs, with a real
 * bash parser: mvdan-sh, the parser of mvdan/sh (shfmt) transpiled to JS. It was chosen over
 * `shell-quote` (a tokenizer: it has no notion of `$(...)` or backticks, so a substitution hides
 * inside a harmless-looking argument) and `bash-parser` (unmaintained since 2017); mvdan-sh parses
 * the whole bash grammar synchronously and reports command substitutions, process substitutions,
 * subshells, functions, redirections and assignments as nodes. Never a regex.
 *
 * Every simple command anywhere in the tree is a part (`a; b`, `a && b`, `a | b`, newlines,
 * `$(b)`, backticks, `<(b)`, `(b)`, `if`, loops, function bodies). Constructs whose effect no
 * prefix rule can judge are "special" parts that only approval (or `*`) allows: writing
 * redirections (`>`, `>>`, `&>`, `>|`, `<>`, `>& file`, except to /dev/null), assignments
 * (`X=1`, `X=1 cmd`, `export`, `declare`, `local`: PATH or GIT_* variables change what later
 * commands run), function definitions, coprocesses, and words whose value is only known after
 * expansion in a command's name.
 */
import { syntax, type ShNode } from 'mvdan-sh';

export interface CommandPart {
  /** The part's source text, for messages. */
  text: string;
  /**
   * The words after quote removal when every word up to the first non-literal one is literal
   * (`git 'log'` → ['git', 'log']); `dynamic` tells whether words were cut at an expansion.
   */
  words: string[];
  dynamic: boolean;
  /** Why no prefix rule may allow it (a write, an assignment, a definition), if so. */
  special?: string;
}

export type ParsedCommand = { ok: true; parts: CommandPart[] } | { ok: false; reason: string };

const parser = syntax.NewParser();

/** Redirect operators (mvdan/sh syntax.RedirOperator) that write to their target. */
const WRITE_REDIRECTS = new Set([54 /* > */, 55 /* >> */, 57 /* <> */, 60 /* >| */, 64 /* &> */, 65 /* &>> */]);
const DUP_OUT = 59; /* >& */
const SPECIAL_NODES: Record<string, string> = {
  FuncDecl: 'defines a function',
  CoprocClause: 'starts a coprocess',
  DeclClause: 'sets variables',
  LetClause: 'sets variables',
};

export function parseCommand(command: string): ParsedCommand {
  const bytes = new TextEncoder().encode(command);
  // mvdan/sh positions are byte offsets into the UTF-8 source.
  const text = (node: ShNode) => new TextDecoder().decode(bytes.subarray(node.Pos().Offset(), node.End().Offset()));
  let file: ShNode;
  try {
    file = parser.Parse(command, 'command');
  } catch (error) {
    return { ok: false, reason: firstLine(error) };
  }
  const parts: CommandPart[] = [];
  syntax.Walk(file, (node) => {
    if (!node) return true;
    const type = syntax.NodeType(node);
    if (type === 'CallExpr') {
      const args = (node.Args as ShNode[] | undefined) ?? [];
      const assigns = (node.Assigns as ShNode[] | undefined) ?? [];
      const words: string[] = [];
      let dynamic = false;
      for (const word of args) {
        const value = literalOf(word);
        if (value === undefined) {
          dynamic = true;
          break;
        }
        words.push(value);
      }
      const part: CommandPart = { text: text(node), words, dynamic };
      if (assigns.length > 0) part.special = 'sets variables';
      else if (words.length === 0) part.special = 'runs a command whose name is only known when it runs';
      parts.push(part);
    } else if (type === 'Redirect') {
      const op = node.Op as number;
      const word = node.Word as ShNode | undefined;
      const target = word ? literalOf(word) : undefined;
      const writes = WRITE_REDIRECTS.has(op) || (op === DUP_OUT && (target === undefined || !/^[0-9]+$|^-$/.test(target)));
      if (writes && target !== '/dev/null') parts.push({ text: text(node), words: [], dynamic: false, special: 'writes to a file' });
    } else if (type in SPECIAL_NODES) {
      parts.push({ text: text(node).split('\n')[0], words: [], dynamic: false, special: SPECIAL_NODES[type] });
    }
    return true;
  });
  return { ok: true, parts };
}

/** A word's value after quote removal when it is made of plain text only, else undefined. */
function literalOf(word: ShNode): string | undefined {
  let out = '';
  for (const part of (word.Parts as ShNode[] | undefined) ?? []) {
    const type = syntax.NodeType(part);
    if (type === 'Lit' || (type === 'SglQuoted' && !part.Dollar)) {
      const value = String(part.Value);
      // Escapes (`a\ b`) are kept raw by the parser: such a word is not judged literally.
      if (type === 'Lit' && value.includes('\\')) return undefined;
      out += value;
    } else if (type === 'DblQuoted') {
      for (const inner of (part.Parts as ShNode[] | undefined) ?? []) {
        if (syntax.NodeType(inner) !== 'Lit' || String(inner.Value).includes('\\')) return undefined;
        out += String(inner.Value);
      }
    } else {
      return undefined;
    }
  }
  return out;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'Error' in error ? String((error as { Error(): string }).Error()) : String(error);
  return message.split('\n')[0];
}
