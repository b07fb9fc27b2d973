/**
 * Splits a bash command line into the parts that must each be allowed before it runs, with a real
 * bash grammar: tree-sitter-bash, run by web-tree-sitter (WebAssembly, maintained by the
 * tree-sitter project). It replaced mvdan-sh 0.10.1 (unmaintained transpiled Go), which, like its
 * WebAssembly successor sh-syntax, stops reading at U+0080 or a lone surrogate, so
 * `echo \u0080; touch X` was judged as `echo`. tree-sitter-bash sees both commands there, and a
 * parse takes a fraction of a millisecond (bench/shellParse.bench.ts). Never a regex.
 *
 * The parser is loaded lazily, on the first command judged (`loadShellParser`), so nothing of it
 * runs when the CLI or the extension starts.
 *
 * Defence in depth around a parser that was not written for security:
 * - a command longer than MAX_JUDGED_LENGTH is not parsed at all, and judging one below it costs
 *   time linear in its length (the walks below are loops, not recursion, so depth cannot
 *   overflow the stack);
 * - a command with a control character (Unicode Cc, C1 included) other than tab and newline, or
 *   that is not well-formed UTF-16 (a lone surrogate), is not judged at all;
 * - a parse with an error or a missing token is not judged, and neither is one in which some
 *   character of the input belongs to no token (the parser skipped it);
 * - the walk knows every node type it accepts; any other construct is a "special" part.
 *
 * Every simple command anywhere in the tree is a part (`a; b`, `a && b`, `a | b`, newlines,
 * `$(b)`, backticks, `<(b)`, `(b)`, `{ b; }`, `if`, loops, function bodies, heredoc commands).
 * Constructs whose effect no prefix rule can judge are "special" parts that only approval (or
 * `*`) allows: writing redirections (except to /dev/null), fd duplications other than between
 * stdout and stderr, reads from a file named only when it runs, anything naming /dev/tcp or
 * /dev/udp, assignments (`X=1`, `X=1 cmd`, `export`, `declare`, `local`, `unset`, a `for`
 * variable), function definitions, `[[ ]]` and `[ ]` tests, arithmetic (`(( ))`, `$(( ))`,
 * `$[ ]`, C-style `for`), parameter expansions with an operator or a subscript (`${x=…}`,
 * `${x@P}`, `${!x}`, `${x:…}`, `${a[i]}`: bash evaluates them and their subscripts can run
 * commands), and a command whose name is only known after expansion.
 */
import * as path from 'node:path';
import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';

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
  /** Where the part is in the command: [start, end) in UTF-16 code units. */
  span?: readonly [number, number];
}

export type ParsedCommand = { ok: true; parts: CommandPart[] } | { ok: false; reason: string };

export interface ShellParser {
  parse(command: string): ParsedCommand;
}

/** Cc other than tab (U+0009) and newline (U+000A): C0, DEL and C1. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The longest command judged, in UTF-16 code units (64 KiB of ASCII). Judging costs time linear in
 * the length (bench/shellparse), but a longer command is nothing a person could read on an
 * approval card either: it is treated like one that cannot be parsed (it asks; `*` allows it
 * only when there is no deny rule), and its text is never parsed.
 */
export const MAX_JUDGED_LENGTH = 65_536;

/** Why a command is not judged at all, before any parsing; undefined when it may be parsed. */
export function unjudgeable(command: string): string | undefined {
  if (command.length > MAX_JUDGED_LENGTH) return `it is longer than ${MAX_JUDGED_LENGTH.toLocaleString('en-US')} characters (${command.length.toLocaleString('en-US')})`;
  if (LONE_SURROGATE.test(command)) return 'it is not well-formed text (a lone surrogate)';
  const control = CONTROL.exec(command);
  if (control) return `it contains the control character U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return undefined;
}

let loading: Promise<ShellParser> | undefined;

/**
 * The bash parser, loaded once on first use. The .wasm files are found next to the bundle
 * (esbuild.js copies them to dist/) or, unbundled (tests), in node_modules.
 */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<ShellParser> {
  // require, not import(): bundlers then take the package's CommonJS build, which finds its files
  // by __dirname (the ES module build needs import.meta.url, which a CommonJS bundle lacks). The
  // module body still runs only here, on first use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Parser, Language } = require('web-tree-sitter') as typeof import('web-tree-sitter');
  await Parser.init({ locateFile: () => wasmPath('web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm') });
  const bash = await Language.load(wasmPath('tree-sitter-bash/tree-sitter-bash.wasm', 'tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(bash);
  return { parse: (command) => parseWith(parser, command) };
}

function wasmPath(request: string, file: string): string {
  try {
    return require.resolve(request);
  } catch {
    return path.join(__dirname, file);
  }
}

function parseWith(parser: TreeSitterParser, command: string): ParsedCommand {
  const refused = unjudgeable(command);
  if (refused !== undefined) return { ok: false, reason: refused };
  const tree = parser.parse(command);
  if (!tree) return { ok: false, reason: 'the parser gave no result' };
  try {
    const root = tree.rootNode;
    if (root.hasError) return { ok: false, reason: `a syntax error near \`${short(firstError(root)?.text ?? '')}\`` };
    const skipped = uncovered(root, command);
    if (skipped !== undefined) return { ok: false, reason: `the parser skipped \`${short(skipped)}\`` };
    const parts: CommandPart[] = [];
    walk(root, parts);
    // Also with quotes, backslashes and plain expansions taken out (`/dev/t"c"p`, `/dev/tc${E}p`).
    if (/\/dev\/(tcp|udp)\b/.test(command) || /\/dev\/(tcp|udp)\b/.test(command.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/g, '').replace(/["'\\]/g, ''))) parts.push({ text: command, words: [], dynamic: false, special: 'names /dev/tcp or /dev/udp (a network connection)', span: [0, command.length] });
    return { ok: true, parts };
  } finally {
    tree.delete();
  }
}

/** Containers: their children are walked, they add no part of their own. */
const CONTAINERS = new Set([
  'program', 'list', 'pipeline', 'redirected_statement', 'subshell', 'negated_command', 'if_statement', 'elif_clause',
  'else_clause', 'while_statement', 'do_group', 'case_statement', 'case_item', 'command_substitution', 'process_substitution',
  'string', 'concatenation', 'command_name', 'heredoc_redirect', 'heredoc_body', 'herestring_redirect', 'comment',
  'word', 'number', 'raw_string', 'ansi_c_string', 'translated_string', 'string_content', 'simple_expansion',
  'variable_name', 'special_variable_name', 'heredoc_start', 'heredoc_content', 'heredoc_end', 'file_descriptor',
  'brace_expression', 'extglob_pattern',
]);

const SPECIAL: Record<string, string> = {
  function_definition: 'defines a function',
  variable_assignment: 'sets variables',
  variable_assignments: 'sets variables',
  declaration_command: 'sets variables',
  unset_command: 'sets variables',
  for_statement: 'sets a variable (the loop variable)',
  select_statement: 'sets a variable',
  c_style_for_statement: 'evaluates arithmetic, which can run commands',
  test_command: 'runs a test ([[ ]] or [ ]), whose subscripts can run commands',
  arithmetic_expansion: 'evaluates arithmetic, which can run commands',
  binary_expression: 'evaluates arithmetic, which can run commands',
  unary_expression: 'evaluates arithmetic, which can run commands',
  ternary_expression: 'evaluates arithmetic, which can run commands',
  postfix_expression: 'evaluates arithmetic, which can run commands',
  parenthesized_expression: 'evaluates arithmetic, which can run commands',
  subscript: 'uses an array subscript, which bash evaluates',
  array: 'sets an array',
};

/**
 * Every part of the tree, in source order. A loop with its own stack, not recursion: the tree is
 * as deep as the command nests (`$($($(…)))`), and a recursive walk overflowed the stack there.
 */
function walk(root: SyntaxNode, parts: CommandPart[]): void {
  const stack: SyntaxNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!node.isNamed) continue;
    const part = partOf(node);
    if (part !== undefined) parts.push(part);
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
  }
}

/** The part a node adds itself (its children are walked either way), if any. */
function partOf(node: SyntaxNode): CommandPart | undefined {
  const type = node.type;
  if (type === 'command') return commandPart(node);
  // `{ …; }` is a group; `(( … ))` is arithmetic.
  if (type === 'compound_statement') return node.child(0)?.type !== '{' ? special(node, 'evaluates arithmetic, which can run commands') : undefined;
  if (type === 'expansion') return isPlainExpansion(node) ? undefined : special(node, 'expands a parameter with an operator or a subscript, which bash evaluates');
  if (type === 'file_redirect') {
    const reason = redirectRisk(node);
    return reason !== undefined ? special(node, reason) : undefined;
  }
  if (type in SPECIAL) return special(node, SPECIAL[type]);
  if (!CONTAINERS.has(type)) return special(node, `uses a construct the rules do not judge (${type})`);
  return undefined;
}

function commandPart(node: SyntaxNode): CommandPart {
  const name = node.childForFieldName('name');
  const args = node.childrenForFieldName('argument').filter((n): n is SyntaxNode => n !== null);
  const words: string[] = [];
  let dynamic = false;
  for (const word of name ? [name, ...args] : []) {
    const value = literalOf(word);
    if (value === undefined) {
      dynamic = true;
      break;
    }
    words.push(value);
  }
  const part: CommandPart = { text: node.text, words, dynamic, span: spanOf(node) };
  if (node.namedChildren.some((c) => c?.type === 'variable_assignment')) part.special = 'sets variables';
  else if (words.length === 0) part.special = 'runs a command whose name is only known when it runs';
  return part;
}

/** `${name}` and nothing else: `${`, a name, `}`. */
function isPlainExpansion(node: SyntaxNode): boolean {
  const children = node.children.filter((c): c is SyntaxNode => c !== null);
  return (
    children.length === 3 &&
    children[0].type === '${' &&
    (children[1].type === 'variable_name' || children[1].type === 'special_variable_name') &&
    children[2].type === '}'
  );
}

const WRITES = new Set(['>', '>>', '&>', '&>>', '>|']);

function redirectRisk(node: SyntaxNode): string | undefined {
  const op = node.children.find((c) => c !== null && !c.isNamed && /^[<>&|-]+$/.test(c.type))?.type ?? '';
  const destinations = node.childrenForFieldName('destination').filter((n): n is SyntaxNode => n !== null);
  const values = destinations.map(literalOf);
  const target = values.every((v) => v !== undefined) ? values.join('') : undefined;
  const fd = node.childForFieldName('descriptor')?.text;
  if (target !== undefined && /^\/dev\/(tcp|udp)\//.test(target)) return 'opens a network connection (/dev/tcp, /dev/udp)';
  if (WRITES.has(op)) return target === '/dev/null' ? undefined : 'writes to a file';
  if (op === '>&' || op === '<&') {
    if (target !== undefined && !/^[0-9]+-?$/.test(target)) return op === '>&' ? 'writes to a file' : 'reads from a file named only when it runs';
    // Only stdout and stderr swapped into each other (`2>&1`, `>&2`): both are the command's output.
    if (op === '>&' && (target === '1' || target === '2') && (fd === undefined || fd === '1' || fd === '2')) return undefined;
    return 'duplicates a file descriptor';
  }
  if (op === '<&-' || op === '>&-') return 'closes a file descriptor';
  if (op === '<') return target === undefined ? 'reads from a file named only when it runs' : undefined;
  return `uses a redirection the rules do not judge (${op || node.text})`;
}

/** A word's value after quote removal when it is made of plain text only, else undefined. */
function literalOf(word: SyntaxNode): string | undefined {
  switch (word.type) {
    case 'word':
    case 'number':
    case 'command_name': {
      if (word.type === 'command_name') {
        const inner = word.namedChild(0);
        return inner && word.namedChildCount === 1 ? literalOf(inner) : undefined;
      }
      // Escapes (`a\ b`) are kept raw by the parser: such a word is not judged literally. Nor is
      // one with a brace: the grammar leaves bash's brace expansion in the word (`/{p,}roc` is
      // `/proc /roc` when it runs), so its text is not what the command gets.
      return word.text.includes('\\') || word.text.includes('{') ? undefined : word.text;
    }
    case 'raw_string':
      return word.text.slice(1, -1);
    case 'string': {
      let out = '';
      for (const child of word.children) {
        if (child?.type === '"') continue;
        if (!child || child.type !== 'string_content' || child.text.includes('\\')) return undefined;
        out += child.text;
      }
      return out;
    }
    case 'concatenation': {
      let out = '';
      for (const child of word.children) {
        const value = child?.isNamed ? literalOf(child) : undefined;
        if (value === undefined) return undefined;
        out += value;
      }
      return out;
    }
    default:
      return undefined;
  }
}

function special(node: SyntaxNode, reason: string): CommandPart {
  return { text: firstLine(node.text), words: [], dynamic: false, special: reason, span: spanOf(node) };
}

function spanOf(node: SyntaxNode): [number, number] {
  return [node.startIndex, node.endIndex];
}

/**
 * A special part's text, for messages: its first line, at most SHOWN characters. Bounded, so that
 * nested specials (`((((…))))`) cost their number, not their number times the command's length.
 */
function firstLine(text: string): string {
  const head = text.length > SHOWN ? text.slice(0, SHOWN) : text;
  const end = head.indexOf('\n');
  return end < 0 ? head : head.slice(0, end);
}

const SHOWN = 200;

/** Source text that belongs to no token (other than blanks and line continuations), if any. */
function uncovered(root: SyntaxNode, source: string): string | undefined {
  const ranges: [number, number][] = [];
  const cursor = root.walk();
  try {
    let descending = true;
    for (;;) {
      if (descending && cursor.gotoFirstChild()) continue;
      if (cursor.currentNode.childCount === 0) ranges.push([cursor.startIndex, cursor.endIndex]);
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
  ranges.sort((a, b) => a[0] - b[0]);
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) {
      const gap = source.slice(at, start);
      if (!/^(?:[ \t\n]|\\\n)*$/.test(gap)) return gap.trim();
    }
    at = Math.max(at, end);
  }
  const rest = source.slice(at);
  return /^(?:[ \t\n]|\\\n)*$/.test(rest) ? undefined : rest.trim();
}

/** The first error or missing token in source order; a loop, for the reason walk is one. */
function firstError(root: SyntaxNode): SyntaxNode | undefined {
  const stack: SyntaxNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'ERROR' || node.isMissing) return node;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child && (child.hasError || child.isMissing)) stack.push(child);
    }
  }
  return undefined;
}

function short(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}
