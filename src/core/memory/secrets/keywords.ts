/**
 * Which of a fixed set of lower-case keywords occur in a text. Rules use it as gitleaks does: a
 * rule's regex runs only when one of its keywords occurs. One pass over the text with the
 * keywords indexed by their first two characters (one regex alternation of ~60 literals tries
 * every literal at every position: 4× slower on a 10 KB note, bench/secrets; a loop of
 * `includes` scans the text once per keyword). Every occurrence counts, overlapping ones too.
 */
export class KeywordSet {
  /**
   * Keywords of two or more characters by the low bytes of their first two characters (a table,
   * not a Map: one array read per position; a slot shared by two pairs is sorted out by `startsWith`).
   * Built on the first search: the sets are module constants, and a command that never checks a
   * text for secrets (the MCP server answering `initialize`) should not pay for three tables.
   */
  private byPair: (string[] | undefined)[] | undefined;
  /** One-character keywords by their character code. */
  private readonly single = new Map<number, string>();
  private readonly keywords: readonly string[];

  constructor(keywords: Iterable<string>) {
    this.keywords = [...new Set(keywords)];
  }

  private index(): (string[] | undefined)[] {
    const byPair = new Array<string[] | undefined>(0x10000).fill(undefined);
    for (const k of this.keywords) {
      if (k.length === 0) continue;
      if (k.length === 1) {
        this.single.set(k.charCodeAt(0), k);
        continue;
      }
      const key = pairKey(k.charCodeAt(0), k.charCodeAt(1));
      (byPair[key] ??= []).push(k);
    }
    return byPair;
  }

  /** The keywords found in `lower` (a lower-cased text). */
  foundIn(lower: string): Set<string> {
    const byPair = (this.byPair ??= this.index());
    const found = new Set<string>();
    const n = lower.length;
    const singles = this.single.size > 0;
    for (let i = 0; i < n; i++) {
      const c = lower.charCodeAt(i);
      if (singles) {
        const one = this.single.get(c);
        if (one !== undefined) found.add(one);
      }
      if (i + 1 >= n) break;
      const list = byPair[pairKey(c, lower.charCodeAt(i + 1))];
      if (list === undefined) continue;
      for (const k of list) if (!found.has(k) && lower.startsWith(k, i)) found.add(k);
    }
    return found;
  }
}

function pairKey(a: number, b: number): number {
  return ((a & 0xff) << 8) | (b & 0xff);
}
