/** Output formatting shared by the commands: sizes and numbered lines. */

/**
 * du -h style sizes as in the docs (`512B`, `1.5K`, `4.0K`, `12K`, `1.2M`): one decimal below
 * 10 units, whole units above, always rounded up so a non-empty file never shows as 0.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G', 'T'];
  let value = bytes / 1024;
  let unit = 0;
  for (;;) {
    const shown = value < 10 ? Math.ceil(value * 10) / 10 : Math.ceil(value);
    if (shown < 1024 || unit === units.length - 1) {
      return `${shown < 10 ? shown.toFixed(1) : String(shown)}${units[unit]}`;
    }
    value /= 1024;
    unit++;
  }
}

/** `%6d\t{line}` as the docs specify. */
export function numberLine(lineNumber: number, line: string): string {
  return `${String(lineNumber).padStart(6, ' ')}\t${line}`;
}

/**
 * Two sizes for one sentence ("would make it X, over the limit of Y"): human-readable, but in
 * exact bytes when rounding would make them look equal.
 */
export function formatSizePair(a: number, b: number): [string, string] {
  const [fa, fb] = [formatSize(a), formatSize(b)];
  return fa === fb ? [`${a} bytes`, `${b} bytes`] : [fa, fb];
}
