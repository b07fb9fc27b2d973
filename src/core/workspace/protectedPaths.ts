/**
 * The one table of protected places: where code runs by itself, and where credentials live.
 * Every list that guards them is derived from it, so none can be shorter than another:
 *
 * - The text editor (editor.ts) writes a protected place only when the user approves that one
 *   write on its card, or the CLI was given --allow-edits-protected: `protectedReason`, every
 *   PROTECTED_PLACES name at any depth (a home folder such as .config at the root only) and every
 *   name that starts with `.git`.
 * - The OS sandbox (platform/node/sandboxPlan.ts) keeps commands from writing them: the
 *   `workspace` places at the workspace folder's root, the `home` places in the home folder when a
 *   command may write there (the workspace is the home folder or holds it), and git's places
 *   (GIT_DIR_PROTECTED, each repository's configuration files, hooks path and fsmonitor program)
 *   wherever git would look, computed from the workspace folder.
 * - The OS sandbox hides CREDENTIAL_PLACES (home-relative) from every command; the command rules
 *   (commandRules.ts) ask before a read-only default that names one (CREDENTIAL_HINTS).
 * - A memory folder may never name a protected place (settingsParse.ts).
 */

/** A place where code runs by itself. `name` is case-folded; a folder protects all it holds. */
export interface ProtectedPlace {
  name: string;
  kind: 'folder' | 'file';
  /**
   * Where the OS sandbox protects it: `workspace`, the workspace folder's root (what editors,
   * package managers, hook managers and CI read); `home`, the home folder (what shells and tools
   * read at start). The text editor protects both at any depth (a `home` folder at the root).
   */
  scope: 'workspace' | 'home';
  /** When code runs from it: the end of the sentence "… runs code …". */
  runs: string;
}

const WHEN_OPENED = 'when the folder is opened in an editor';
const ON_COMMIT = 'on a git commit or push';
const PACKAGE_MANAGER = 'when the package manager starts in the folder';
const SHELL_START = 'when a shell starts';

export const PROTECTED_PLACES: readonly ProtectedPlace[] = [
  // Editors and agents: settings, tasks (runOn folderOpen), launch configurations, MCP servers, hooks.
  { name: '.vscode', kind: 'folder', scope: 'workspace', runs: WHEN_OPENED },
  { name: '.idea', kind: 'folder', scope: 'workspace', runs: WHEN_OPENED },
  { name: '.devcontainer', kind: 'folder', scope: 'workspace', runs: 'when the folder is reopened in a container' },
  { name: '.devcontainer.json', kind: 'file', scope: 'workspace', runs: 'when the folder is reopened in a container' },
  { name: '.mcp.json', kind: 'file', scope: 'workspace', runs: 'when an agent starts its MCP servers' },
  { name: '.claude', kind: 'folder', scope: 'workspace', runs: 'when Claude Code runs its hooks and commands' },
  // Per-folder environments.
  { name: '.envrc', kind: 'file', scope: 'workspace', runs: 'when a shell enters the folder (direnv)' },
  { name: '.env.local.sh', kind: 'file', scope: 'workspace', runs: 'when a shell enters the folder' },
  { name: '.direnv', kind: 'folder', scope: 'workspace', runs: 'when a shell enters the folder (direnv)' },
  // Git, hook managers and CI.
  { name: '.gitmodules', kind: 'file', scope: 'workspace', runs: 'when submodules are cloned or updated' },
  { name: '.husky', kind: 'folder', scope: 'workspace', runs: ON_COMMIT },
  { name: '.pre-commit-config.yaml', kind: 'file', scope: 'workspace', runs: ON_COMMIT },
  { name: 'lefthook.yml', kind: 'file', scope: 'workspace', runs: ON_COMMIT },
  { name: '.lefthook.yml', kind: 'file', scope: 'workspace', runs: ON_COMMIT },
  { name: 'lefthook-local.yml', kind: 'file', scope: 'workspace', runs: ON_COMMIT },
  { name: '.github', kind: 'folder', scope: 'workspace', runs: 'in CI when pushed (workflows, with the repository\'s secrets)' },
  { name: '.gitlab', kind: 'folder', scope: 'workspace', runs: 'in CI when pushed' },
  { name: '.gitlab-ci.yml', kind: 'file', scope: 'workspace', runs: 'in CI when pushed' },
  { name: '.circleci', kind: 'folder', scope: 'workspace', runs: 'in CI when pushed' },
  { name: '.travis.yml', kind: 'file', scope: 'workspace', runs: 'in CI when pushed' },
  // Package managers read these from the project before running anything (registries, scripts, yarnPath).
  { name: '.npmrc', kind: 'file', scope: 'workspace', runs: PACKAGE_MANAGER },
  { name: '.yarnrc', kind: 'file', scope: 'workspace', runs: PACKAGE_MANAGER },
  { name: '.yarnrc.yml', kind: 'file', scope: 'workspace', runs: PACKAGE_MANAGER },
  { name: '.pnpmfile.cjs', kind: 'file', scope: 'workspace', runs: PACKAGE_MANAGER },
  { name: 'bunfig.toml', kind: 'file', scope: 'workspace', runs: PACKAGE_MANAGER },
  // Shells and tools at start, from the home folder.
  ...[
    '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout',
    '.kshrc', '.cshrc', '.tcshrc', '.inputrc',
  ].map((name): ProtectedPlace => ({ name, kind: 'file', scope: 'home', runs: SHELL_START })),
  { name: '.gitconfig', kind: 'file', scope: 'home', runs: 'when git starts (its hooks path, fsmonitor and filters)' },
  { name: '.config', kind: 'folder', scope: 'home', runs: 'when a tool or the desktop session starts (git, fish, autostart, systemd units)' },
  { name: '.local', kind: 'folder', scope: 'home', runs: 'when a program on the PATH starts (~/.local/bin)' },
  { name: '.ssh', kind: 'folder', scope: 'home', runs: 'when ssh or git connects (ProxyCommand)' },
];

/**
 * The parts of a git directory (each repository's `.git`, and what `commondir`, `modules/<name>`
 * and `worktrees/<name>` lead to) that a command may not change: everything git reads as
 * configuration or runs. A commit, add, branch or stash writes only the others (objects, refs,
 * logs, index, HEAD, ORIG_HEAD, COMMIT_EDITMSG, packed-refs, …).
 */
export const GIT_DIR_PROTECTED: readonly string[] = ['config', 'config.worktree', 'commondir', 'gitdir', 'hooks', 'info'];
/** Folders of a git directory that hold further git directories (submodules, linked worktrees). */
export const GIT_DIR_NESTED: readonly string[] = ['modules', 'worktrees'];

/**
 * Where credentials live, relative to the home folder: never readable from inside the OS sandbox,
 * and named by no read-only default without asking. `hint` is the distinctive part the command
 * rules look for in a command's text (default: the path).
 */
export interface CredentialPlace {
  path: string;
  kind: 'folder' | 'file';
  holds: string;
  hint?: string;
}

const HISTORY = 'shell and tool history (commands typed, with the secrets in them)';

export const CREDENTIAL_PLACES: readonly CredentialPlace[] = [
  // Keys and key stores.
  { path: '.ssh', kind: 'folder', holds: 'SSH keys' },
  { path: '.gnupg', kind: 'folder', holds: 'GnuPG keys' },
  { path: '.password-store', kind: 'folder', holds: 'pass passwords' },
  { path: '.local/share/keyrings', kind: 'folder', holds: 'the desktop keyring', hint: 'keyrings' },
  { path: '.pki', kind: 'folder', holds: 'NSS certificates and keys', hint: '.pki/' },
  // Git and code hosts.
  { path: '.git-credentials', kind: 'file', holds: 'git passwords and tokens' },
  { path: '.config/git/credentials', kind: 'file', holds: 'git passwords and tokens' },
  { path: '.config/gh', kind: 'folder', holds: 'the GitHub CLI token' },
  { path: '.config/hub', kind: 'file', holds: 'the hub token' },
  { path: '.config/glab-cli', kind: 'folder', holds: 'the GitLab CLI token' },
  { path: '.config/github-copilot', kind: 'folder', holds: 'the Copilot token' },
  { path: '.netrc', kind: 'file', holds: 'machine passwords (curl, git, Heroku)' },
  { path: '.authinfo', kind: 'file', holds: 'machine passwords' },
  { path: '.authinfo.gpg', kind: 'file', holds: 'machine passwords' },
  // Agents and editors.
  { path: '.claude/.credentials.json', kind: 'file', holds: 'the Claude Code login' },
  { path: '.claude.json', kind: 'file', holds: 'Claude Code\'s account and MCP configuration' },
  { path: '.config/Code', kind: 'folder', holds: 'VS Code\'s secret storage and sessions' },
  { path: '.config/Code - Insiders', kind: 'folder', holds: 'VS Code\'s secret storage and sessions' },
  { path: '.config/VSCodium', kind: 'folder', holds: 'VSCodium\'s secret storage and sessions' },
  { path: '.local/share/code-server', kind: 'folder', holds: 'code-server\'s secret storage and sessions', hint: 'code-server' },
  { path: '.vscode-server/data', kind: 'folder', holds: 'the VS Code server\'s secret storage', hint: '.vscode-server' },
  // Package managers and build tools with registry tokens.
  { path: '.npmrc', kind: 'file', holds: 'npm registry tokens' },
  { path: '.yarnrc', kind: 'file', holds: 'yarn registry tokens' },
  { path: '.yarnrc.yml', kind: 'file', holds: 'yarn registry tokens' },
  { path: '.bunfig.toml', kind: 'file', holds: 'bun registry tokens' },
  { path: '.config/configstore', kind: 'folder', holds: 'Node CLIs\' tokens (Firebase, Netlify, …)', hint: 'configstore' },
  { path: '.pypirc', kind: 'file', holds: 'PyPI tokens' },
  { path: '.config/pip', kind: 'folder', holds: 'pip index credentials' },
  { path: '.pip', kind: 'folder', holds: 'pip index credentials', hint: '.pip/' },
  { path: '.config/pypoetry', kind: 'folder', holds: 'Poetry repository credentials', hint: 'pypoetry' },
  { path: '.cargo/credentials', kind: 'file', holds: 'crates.io tokens' },
  { path: '.cargo/credentials.toml', kind: 'file', holds: 'crates.io tokens' },
  { path: '.gem/credentials', kind: 'file', holds: 'RubyGems tokens' },
  { path: '.gradle/gradle.properties', kind: 'file', holds: 'Gradle repository and signing credentials' },
  { path: '.m2/settings.xml', kind: 'file', holds: 'Maven repository credentials' },
  { path: '.m2/settings-security.xml', kind: 'file', holds: 'Maven\'s master password' },
  { path: '.ivy2/.credentials', kind: 'file', holds: 'Ivy and sbt repository credentials' },
  { path: '.sbt/.credentials', kind: 'file', holds: 'sbt repository credentials' },
  { path: '.nuget/NuGet/NuGet.Config', kind: 'file', holds: 'NuGet feed credentials' },
  { path: '.config/NuGet/NuGet.Config', kind: 'file', holds: 'NuGet feed credentials' },
  { path: '.composer/auth.json', kind: 'file', holds: 'Composer tokens' },
  { path: '.config/composer/auth.json', kind: 'file', holds: 'Composer tokens' },
  { path: '.pub-cache/credentials.json', kind: 'file', holds: 'Dart pub tokens' },
  { path: '.config/dart/pub-credentials.json', kind: 'file', holds: 'Dart pub tokens' },
  // Containers and clusters.
  { path: '.docker/config.json', kind: 'file', holds: 'registry logins', hint: '.docker' },
  { path: '.kube', kind: 'folder', holds: 'cluster credentials' },
  { path: '.config/helm', kind: 'folder', holds: 'chart repository passwords' },
  { path: '.minikube', kind: 'folder', holds: 'cluster keys' },
  // Cloud CLIs.
  { path: '.aws', kind: 'folder', holds: 'AWS keys and SSO tokens' },
  { path: '.config/gcloud', kind: 'folder', holds: 'Google Cloud credentials', hint: 'gcloud' },
  { path: '.azure', kind: 'folder', holds: 'Azure tokens' },
  { path: '.oci', kind: 'folder', holds: 'Oracle Cloud keys', hint: '.oci/' },
  { path: '.config/doctl', kind: 'folder', holds: 'DigitalOcean tokens' },
  { path: '.aliyun', kind: 'folder', holds: 'Alibaba Cloud keys' },
  { path: '.bluemix', kind: 'folder', holds: 'IBM Cloud tokens' },
  { path: '.config/hcloud', kind: 'folder', holds: 'Hetzner Cloud tokens' },
  { path: '.config/linode-cli', kind: 'file', holds: 'Linode tokens' },
  { path: '.terraform.d/credentials.tfrc.json', kind: 'file', holds: 'Terraform Cloud tokens' },
  { path: '.terraformrc', kind: 'file', holds: 'Terraform Cloud tokens' },
  { path: '.pulumi/credentials.json', kind: 'file', holds: 'Pulumi tokens' },
  { path: '.fly', kind: 'folder', holds: 'Fly.io tokens', hint: '.fly/' },
  { path: '.config/netlify', kind: 'folder', holds: 'Netlify tokens' },
  { path: '.local/share/com.vercel.cli', kind: 'folder', holds: 'Vercel tokens', hint: 'com.vercel.cli' },
  { path: '.wrangler', kind: 'folder', holds: 'Cloudflare tokens' },
  { path: '.config/.wrangler', kind: 'folder', holds: 'Cloudflare tokens' },
  { path: '.supabase', kind: 'folder', holds: 'Supabase tokens' },
  { path: '.databrickscfg', kind: 'file', holds: 'Databricks tokens' },
  { path: '.snowflake', kind: 'folder', holds: 'Snowflake credentials' },
  { path: '.boto', kind: 'file', holds: 'cloud storage keys' },
  { path: '.s3cfg', kind: 'file', holds: 'S3 keys' },
  { path: '.config/rclone', kind: 'folder', holds: 'cloud storage credentials' },
  { path: '.vault-token', kind: 'file', holds: 'the Vault token' },
  { path: '.config/op', kind: 'folder', holds: 'the 1Password CLI session' },
  { path: '.config/stripe', kind: 'folder', holds: 'Stripe keys' },
  { path: '.sentryclirc', kind: 'file', holds: 'the Sentry token' },
  { path: '.config/ngrok', kind: 'folder', holds: 'the ngrok token' },
  { path: '.kaggle', kind: 'folder', holds: 'the Kaggle key' },
  { path: '.cache/huggingface/token', kind: 'file', holds: 'the Hugging Face token' },
  { path: '.huggingface', kind: 'folder', holds: 'the Hugging Face token' },
  { path: '.wakatime.cfg', kind: 'file', holds: 'the WakaTime key' },
  // Databases.
  { path: '.pgpass', kind: 'file', holds: 'PostgreSQL passwords' },
  { path: '.my.cnf', kind: 'file', holds: 'MySQL passwords' },
  { path: '.mylogin.cnf', kind: 'file', holds: 'MySQL passwords' },
  // Browsers (session cookies log in as the user).
  { path: '.mozilla', kind: 'folder', holds: 'Firefox profiles (cookies, saved passwords)' },
  { path: '.config/google-chrome', kind: 'folder', holds: 'Chrome profiles (cookies, saved passwords)' },
  { path: '.config/chromium', kind: 'folder', holds: 'Chromium profiles (cookies, saved passwords)' },
  { path: '.config/BraveSoftware', kind: 'folder', holds: 'Brave profiles (cookies, saved passwords)' },
  // Histories.
  ...[
    '.bash_history', '.zsh_history', '.zhistory', '.histfile', '.sh_history', '.local/share/fish/fish_history', '.python_history', '.node_repl_history',
    '.psql_history', '.mysql_history', '.sqlite_history', '.rediscli_history', '.irb_history', '.lesshst', '.viminfo', '.local/share/atuin',
  ].map((path): CredentialPlace => ({ path, kind: path === '.local/share/atuin' ? 'folder' : 'file', holds: HISTORY })),
];

/** What the command rules look for in a command's text: each credential place's hint or path. */
export const CREDENTIAL_HINTS: readonly string[] = [...new Set(CREDENTIAL_PLACES.map((p) => p.hint ?? p.path))];

/** Why writing `rel` (folder-relative, `/`-separated) may run code, or undefined. */
export function protectedReason(rel: string): string | undefined {
  const segments = rel.split('/').filter((s) => s !== '');
  for (const [i, raw] of segments.entries()) {
    const segment = raw.toLowerCase();
    const last = i === segments.length - 1;
    if (segment.startsWith('.git')) return `${raw} is git's (hooks, attributes and filters there run code)`;
    // A home folder (.config, .local, .ssh) matters where the home folder is: at the root of a workspace that is one.
    const place = PROTECTED_PLACES.find((p) => p.name === segment && (p.kind === 'file' ? last : p.scope === 'workspace' || i === 0));
    if (place === undefined) continue;
    if (place.kind === 'file') return `${raw} runs code ${place.runs}`;
    return last ? `${raw} is a folder whose contents run code ${place.runs}` : `${raw}/ holds settings that run code ${place.runs}`;
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
