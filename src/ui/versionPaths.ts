/**
 * The path of a memory version's read-only document (its Uri has the version scheme): which
 * workspace folder, which version, which file. Pure (no `vscode`), so it is tested in plain Node.
 */

/** The version number of the empty side of a diff (a file before its creation, after its delete). */
export const NO_VERSION = 0;

/** The Uri path of a version's document: `/<folder index>/<version>/<store-relative path>`. */
export function versionDocumentPath(folderIndex: number, version: number, rel: string): string {
  return `/${folderIndex}/${version}/${rel}`;
}

export function parseVersionDocumentPath(path: string): { folderIndex: number; version: number; rel: string } | undefined {
  const match = /^\/(\d{1,4})\/(\d{1,15})\/(.+)$/.exec(path);
  if (!match) return undefined;
  return { folderIndex: Number(match[1]), version: Number(match[2]), rel: match[3] };
}
