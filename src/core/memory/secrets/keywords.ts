/**
 * Which of a fixed set of lower-case keywords occur in a text, in one regex pass (a loop of
 * `includes` costs one scan of the text per keyword: 5× slower on a 10 KB note, bench/secrets).
 * Rules use it as gitleaks does: a rule's regex runs only when one of its keywords occurs.
 */
export class KeywordSet {
  private readonly pattern: RegExp;
  /** For each keyword, the keywords it contains (a match of `sk_live` also means `sk` occurs). */
  private readonly implied: ReadonlyMap<string, readonly string[]>;

  constructor(keywords: Iterable<string>) {
    // Longest first, so a keyword inside a longer one still counts through `implied`.
    const all = [...new Set(keywords)].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(all.map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
    this.implied = new Map(all.map((k) => [k, all.filter((o) => k.includes(o))]));
  }

  /** The keywords found in `lower` (a lower-cased text). */
  foundIn(lower: string): Set<string> {
    const found = new Set<string>();
    this.pattern.lastIndex = 0;
    for (let m = this.pattern.exec(lower); m !== null; m = this.pattern.exec(lower)) {
      if (found.has(m[0])) continue;
      for (const k of this.implied.get(m[0]) ?? [m[0]]) found.add(k);
    }
    return found;
  }
}
