// Path containment for the Node adapter (the lexical guard itself is core's invalidStorePathReason).

/** True when `child` is `root` or lies below it (both absolute, already resolved). */
export function isWithin(root: string, child: string, sep: string): boolean {
  return child === root || child.startsWith(root.endsWith(sep) ? root : root + sep);
}
