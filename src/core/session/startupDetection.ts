/**
 * Works out how to install, start and test a project from the files at its root, for the first
 * `/memories/startup.md`. Pure: the caller lists the root's file names and passes the contents of
 * those `wantsContent` asks for; nothing here runs or reads anything.
 */

export interface WorkspaceFile {
  /** Name relative to the workspace folder, `/`-separated (root files: just the name). */
  path: string;
  /** UTF-8 text for files `wantsContent` accepted; undefined when not read. */
  content?: string;
}

export interface StartupCommand {
  purpose: 'install' | 'start' | 'build' | 'test' | 'lint' | 'other';
  command: string;
}

export interface StartupSource {
  /** The file (or files) the commands come from, e.g. `package.json (npm)`. */
  source: string;
  commands: StartupCommand[];
  /** Something the reader should know, e.g. that a file could not be parsed. */
  note?: string;
}

/** Contents above this are not worth reading for a list of scripts. */
export const MAX_STARTUP_FILE_BYTES = 256 * 1024;

const CONTENT_FILES = new Set([
  'package.json', 'Makefile', 'makefile', 'GNUmakefile', 'pyproject.toml', 'Cargo.toml', 'justfile', 'Justfile', 'deno.json',
]);

/** Whether the detector needs the content of this root file (scripts are listed, not read). */
export function wantsContent(path: string): boolean {
  return CONTENT_FILES.has(path);
}

export function detectStartup(files: readonly WorkspaceFile[]): StartupSource[] {
  const byName = new Map(files.map((f) => [f.path, f]));
  const has = (name: string) => byName.has(name);
  const text = (name: string) => byName.get(name)?.content;
  const sources: StartupSource[] = [];
  const add = (s: StartupSource | undefined) => s && (s.commands.length > 0 || s.note) && sources.push(s);

  add(shellScripts(files.map((f) => f.path)));
  if (has('package.json')) add(fromPackageJson(text('package.json'), packageManager(has, text('package.json'))));
  if (has('deno.json')) add(fromDenoJson(text('deno.json')));
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    if (has(name)) {
      add(fromMakefile(name, text(name)));
      break;
    }
  }
  for (const name of ['justfile', 'Justfile']) if (has(name)) add(fromJustfile(name, text(name)));
  add(fromPython(has, text('pyproject.toml')));
  if (has('Cargo.toml')) add(fromCargo(text('Cargo.toml')));
  if (has('go.mod')) add({ source: 'go.mod (Go)', commands: [cmd('build', 'go build ./...'), cmd('test', 'go test ./...')] });
  const compose = ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml'].find(has);
  if (compose) add({ source: `${compose} (Docker Compose)`, commands: [cmd('start', 'docker compose up')] });
  if (has('Gemfile')) add({ source: 'Gemfile (Ruby)', commands: [cmd('install', 'bundle install'), ...(has('Rakefile') ? [cmd('test', 'bundle exec rake')] : [])] });
  if (has('pom.xml')) add({ source: 'pom.xml (Maven)', commands: [cmd('build', 'mvn package'), cmd('test', 'mvn test')] });
  const gradle = ['build.gradle', 'build.gradle.kts'].find(has);
  if (gradle) {
    const g = has('gradlew') ? './gradlew' : 'gradle';
    add({ source: `${gradle} (Gradle)`, commands: [cmd('build', `${g} build`), cmd('test', `${g} test`)] });
  }
  return sources;
}

function cmd(purpose: StartupCommand['purpose'], command: string): StartupCommand {
  return { purpose, command };
}

/** Root shell scripts first: an `init.sh` is the project's own word on how to start. */
function shellScripts(paths: readonly string[]): StartupSource | undefined {
  const scripts = paths.filter((p) => !p.includes('/') && p.endsWith('.sh')).sort(byScriptRank);
  if (scripts.length === 0) return undefined;
  return {
    source: 'shell scripts',
    commands: scripts.map((s) => cmd(/^(init|setup|bootstrap|install)\.sh$/.test(s) ? 'install' : /^test/.test(s) ? 'test' : /^(start|run|dev)\.sh$/.test(s) ? 'start' : 'other', `bash ${s}`)),
  };
}

function byScriptRank(a: string, b: string): number {
  const rank = (s: string) => ['init.sh', 'setup.sh', 'bootstrap.sh', 'start.sh', 'run.sh', 'dev.sh', 'test.sh'].indexOf(s) >>> 0;
  return rank(a) - rank(b) || a.localeCompare(b);
}

type PackageManager = 'npm' | 'yarn' | 'pnpm' | 'bun';

function packageManager(has: (n: string) => boolean, packageJson: string | undefined): PackageManager {
  const declared = /"packageManager"\s*:\s*"(npm|yarn|pnpm|bun)@/.exec(packageJson ?? '')?.[1];
  if (declared) return declared as PackageManager;
  if (has('pnpm-lock.yaml')) return 'pnpm';
  if (has('yarn.lock')) return 'yarn';
  if (has('bun.lockb') || has('bun.lock')) return 'bun';
  return 'npm';
}

const SAFE_NAME = /^[\w:.@/+-]+$/;
const SCRIPT_ORDER = ['dev', 'start', 'serve', 'build', 'compile', 'test', 'lint', 'typecheck'];

function fromPackageJson(content: string | undefined, pm: PackageManager): StartupSource {
  const source = `package.json (${pm})`;
  const install = cmd('install', pm === 'npm' ? 'npm install' : `${pm} install`);
  if (content === undefined) return { source, commands: [install], note: 'package.json was too large to read; see its "scripts".' };
  const manifest = parseJsonObject(content);
  if (!manifest) return { source, commands: [install], note: 'package.json could not be parsed.' };
  const scripts = manifest.scripts;
  if (!scripts || typeof scripts !== 'object') return { source, commands: [install], note: 'package.json has no "scripts".' };
  // Names go into markdown code spans and shell commands: skip odd ones rather than quote them.
  const names = Object.keys(scripts).filter((n) => SAFE_NAME.test(n) && !/^(pre|post)/.test(n));
  names.sort((a, b) => (SCRIPT_ORDER.indexOf(a) >>> 0) - (SCRIPT_ORDER.indexOf(b) >>> 0) || a.localeCompare(b));
  const run = (n: string) => (pm === 'npm' && !['test', 'start'].includes(n) ? `npm run ${n}` : `${pm} ${n}`);
  return { source, commands: [install, ...names.map((n) => cmd(scriptPurpose(n), run(n)))] };
}

function fromDenoJson(content: string | undefined): StartupSource | undefined {
  const tasks = parseJsonObject(content)?.tasks;
  const names = tasks && typeof tasks === 'object' ? Object.keys(tasks).sort() : [];
  return { source: 'deno.json (Deno)', commands: names.length ? names.map((n) => cmd(scriptPurpose(n), `deno task ${n}`)) : [cmd('test', 'deno test')] };
}

function scriptPurpose(name: string): StartupCommand['purpose'] {
  if (/^(dev|start|serve|watch)\b/.test(name)) return 'start';
  if (/^(build|compile|bundle|package)\b/.test(name)) return 'build';
  if (/^(test|e2e|check)\b|:test\b/.test(name)) return 'test';
  if (/^(lint|format|typecheck|fmt)\b/.test(name)) return 'lint';
  if (/^(install|setup|bootstrap|init)\b/.test(name)) return 'install';
  return 'other';
}

function parseJsonObject(content: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = content === undefined ? undefined : JSON.parse(content);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Explicit targets (`name:` at line start), not variables (`:=`), special (`.PHONY`) or pattern (`%`) rules. */
function fromMakefile(name: string, content: string | undefined): StartupSource {
  const targets = [...(content ?? '').matchAll(/^([A-Za-z0-9][\w.-]*(?:[ \t]+[A-Za-z0-9][\w.-]*)*)[ \t]*::?(?!=)/gm)]
    .flatMap((m) => m[1].split(/[ \t]+/))
    .filter((t, i, all) => all.indexOf(t) === i);
  const commands = targets.length > 0 ? targets.map((t) => cmd(scriptPurpose(t), `make ${t}`)) : [cmd('build', 'make')];
  return { source: `${name} (make)`, commands };
}

/** Recipes (`name params: deps`), not assignments or settings (`x := y`, `set shell := ...`). */
function fromJustfile(name: string, content: string | undefined): StartupSource {
  const recipes = [...(content ?? '').matchAll(/^@?([A-Za-z][\w-]*)(?:[ \t]+[^:\n]*)?:(?!=)/gm)].map((m) => m[1]);
  return { source: `${name} (just)`, commands: recipes.map((r) => cmd(scriptPurpose(r), `just ${r}`)) };
}

function fromPython(has: (n: string) => boolean, pyproject: string | undefined): StartupSource | undefined {
  if (!has('pyproject.toml') && !has('requirements.txt') && !has('setup.py') && !has('manage.py')) return undefined;
  const py = pyproject ?? '';
  const tool = has('uv.lock') ? 'uv' : /^\[tool\.poetry\]/m.test(py) || has('poetry.lock') ? 'poetry' : 'pip';
  const runner = tool === 'pip' ? '' : `${tool} run `;
  const commands: StartupCommand[] = [];
  if (tool === 'uv') commands.push(cmd('install', 'uv sync'));
  else if (tool === 'poetry') commands.push(cmd('install', 'poetry install'));
  else if (has('requirements.txt')) commands.push(cmd('install', 'pip install -r requirements.txt'));
  else commands.push(cmd('install', 'pip install -e .'));
  if (has('manage.py')) commands.push(cmd('start', `${runner}python manage.py runserver`), cmd('test', `${runner}python manage.py test`));
  const scripts = /^\[project\.scripts\]\s*\n((?:[^[\n].*\n?)*)/m.exec(py)?.[1] ?? '';
  for (const m of scripts.matchAll(/^\s*"?([\w.-]+)"?\s*=/gm)) commands.push(cmd('start', `${runner}${m[1]}`));
  if (/pytest/.test(py) || has('pytest.ini') || has('conftest.py') || has('tox.ini')) commands.push(cmd('test', `${runner}pytest`));
  return { source: `Python (${tool})`, commands };
}

function fromCargo(content: string | undefined): StartupSource {
  const isWorkspaceOnly = /^\[workspace\]/m.test(content ?? '') && !/^\[package\]/m.test(content ?? '');
  return {
    source: 'Cargo.toml (Rust)',
    commands: [cmd('build', 'cargo build'), ...(isWorkspaceOnly ? [] : [cmd('start', 'cargo run')]), cmd('test', 'cargo test')],
  };
}

/** The markdown body of startup.md's `{{detected}}` placeholder. */
export function renderStartup(sources: readonly StartupSource[]): string {
  if (sources.length === 0) {
    return 'No start or test commands were found (no package.json, Makefile, init.sh, pyproject.toml, Cargo.toml, go.mod, ...).\nAsk the user how to start and test the project and record it here.';
  }
  return sources
    .map((s) => {
      const lines = s.commands.map((c) => `- ${c.purpose}: \`${c.command}\``);
      if (s.note) lines.push(`- note: ${s.note}`);
      return `## ${s.source}\n${lines.join('\n')}`;
    })
    .join('\n\n');
}

/** One line for the progress log, e.g. "commands from package.json (npm), Makefile (make)". */
export function describeStartup(sources: readonly StartupSource[]): string {
  return sources.length === 0 ? 'no start or test commands found yet' : `commands from ${sources.map((s) => s.source).join(', ')}`;
}
