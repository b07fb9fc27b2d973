/**
 * Places in a workspace where code runs by itself: when the folder is opened (.vscode/tasks.json
 * with runOn folderOpen, .devcontainer/, .idea/ run configurations), on a git operation (.git*,
 * .husky/, pre-commit configuration), when a shell starts or enters the folder (.envrc, shell
 * start-up files), or when a package manager starts (.npmrc, .yarnrc*). The text editor writes
 * there only when the user approves that one write on its card, or the CLI was given
 * --allow-edits-protected. The same list is what a memory folder may never name or lie inside.
 */

/** Folders (any path segment, case-folded) whose contents are protected. */
const PROTECTED_FOLDERS = ['.vscode', '.idea', '.husky', '.devcontainer', '.direnv', '.github', '.gitlab', '.circleci'];
/** File names (the last segment, case-folded) that are protected wherever they are. */
const PROTECTED_FILES = [
  '.envrc', '.env.local.sh', '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin',
  '.zlogout', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.pre-commit-config.yaml',
  'lefthook.yml', '.lefthook.yml', '.gitlab-ci.yml', '.travis.yml',
];

/** Why writing `rel` (folder-relative, `/`-separated) may run code, or undefined. */
export function protectedReason(rel: string): string | undefined {
  const segments = rel.split('/').filter((s) => s !== '');
  for (const [i, raw] of segments.entries()) {
    const segment = raw.toLowerCase();
    const last = i === segments.length - 1;
    if (segment.startsWith('.git')) return `${raw} is git's (hooks, attributes and filters there run code)`;
    if (!last && PROTECTED_FOLDERS.includes(segment)) return `${raw}/ holds settings and tasks that run code when the folder is opened or a tool runs`;
    if (last && PROTECTED_FOLDERS.includes(segment)) return `${raw} is a folder of settings that run code`;
    if (last && PROTECTED_FILES.includes(segment)) return `${raw} runs when a shell, a package manager or git starts`;
  }
  return undefined;
}

/** Names that, together in one folder, make git treat it as a repository (a bare one). */
export const GIT_LAYOUT = ['head', 'objects', 'refs'] as const;

/**
 * The folders (ancestors of `rel`, '' included) where the write of `rel` adds one of HEAD,
 * objects/ or refs/: the editor checks that they would not then hold all three.
 */
export function gitLayoutCandidates(rel: string): { folder: string; adds: (typeof GIT_LAYOUT)[number] }[] {
  const segments = rel.split('/').filter((s) => s !== '');
  const out: { folder: string; adds: (typeof GIT_LAYOUT)[number] }[] = [];
  for (const [i, raw] of segments.entries()) {
    const name = raw.toLowerCase();
    const last = i === segments.length - 1;
    if ((name === 'head' && last) || ((name === 'objects' || name === 'refs') && !last)) {
      out.push({ folder: segments.slice(0, i).join('/'), adds: name as (typeof GIT_LAYOUT)[number] });
    }
  }
  return out;
}
