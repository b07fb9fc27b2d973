import * as assert from 'node:assert/strict';
import { describeStartup, detectStartup, renderStartup, wantsContent, type WorkspaceFile } from '../../../src/core/session/startupDetection';

const commands = (files: WorkspaceFile[]) => detectStartup(files).flatMap((s) => s.commands.map((c) => `${c.purpose}: ${c.command}`));

describe('startup detection', () => {
  it('reads package.json scripts in a useful order, with the package manager of the lockfile', () => {
    const pkg = JSON.stringify({ scripts: { lint: 'eslint .', test: 'mocha', build: 'tsc', dev: 'vite', pretest: 'x', 'test:unit': 'mocha', 'bad`name': 'x' } });
    assert.deepEqual(commands([{ path: 'package.json', content: pkg }]), [
      'install: npm install', 'start: npm run dev', 'build: npm run build', 'test: npm test', 'lint: npm run lint', 'test: npm run test:unit',
    ]);
    assert.deepEqual(commands([{ path: 'package.json', content: pkg }, { path: 'pnpm-lock.yaml' }]).slice(0, 2), ['install: pnpm install', 'start: pnpm dev']);
    assert.equal(commands([{ path: 'package.json', content: '{"packageManager":"yarn@4.1.0","scripts":{"start":"node ."}}' }])[1], 'start: yarn start');
  });

  it('says when package.json cannot be used', () => {
    assert.equal(detectStartup([{ path: 'package.json', content: '{oops' }])[0].note, 'package.json could not be parsed.');
    assert.equal(detectStartup([{ path: 'package.json', content: '{}' }])[0].note, 'package.json has no "scripts".');
    assert.match(detectStartup([{ path: 'package.json' }])[0].note ?? '', /too large/);
  });

  it('lists Makefile targets but not variables, special or pattern rules', () => {
    const makefile = 'CC := gcc\n.PHONY: all test\nall: build\nbuild test: deps\n\tcc\n%.o: %.c\n\tcc\nx = 1\nserve::\n';
    assert.deepEqual(commands([{ path: 'Makefile', content: makefile }]), ['other: make all', 'build: make build', 'test: make test', 'start: make serve']);
  });

  it('puts init.sh first among root shell scripts and ignores nested ones', () => {
    assert.deepEqual(commands([{ path: 'run.sh' }, { path: 'zz.sh' }, { path: 'init.sh' }, { path: 'scripts/x.sh' }]), ['install: bash init.sh', 'start: bash run.sh', 'other: bash zz.sh']);
  });

  it('knows Python (uv, poetry, pip), Rust, Go, just, Docker Compose, Gradle', () => {
    const pyproject = '[project]\nname = "x"\ndependencies = ["pytest"]\n[project.scripts]\nx-cli = "x:main"\n';
    assert.deepEqual(commands([{ path: 'pyproject.toml', content: pyproject }, { path: 'uv.lock' }]), ['install: uv sync', 'start: uv run x-cli', 'test: uv run pytest']);
    assert.deepEqual(commands([{ path: 'pyproject.toml', content: '[tool.poetry]\nname="x"\n' }]), ['install: poetry install']);
    assert.deepEqual(commands([{ path: 'requirements.txt' }, { path: 'manage.py' }]), ['install: pip install -r requirements.txt', 'start: python manage.py runserver', 'test: python manage.py test']);
    assert.deepEqual(commands([{ path: 'Cargo.toml', content: '[package]\nname="x"\n' }]), ['build: cargo build', 'start: cargo run', 'test: cargo test']);
    assert.deepEqual(commands([{ path: 'Cargo.toml', content: '[workspace]\nmembers=["a"]\n' }]), ['build: cargo build', 'test: cargo test']);
    assert.deepEqual(commands([{ path: 'go.mod' }]), ['build: go build ./...', 'test: go test ./...']);
    assert.deepEqual(commands([{ path: 'justfile', content: 'set shell := ["bash"]\nbuild:\n  cargo b\ntest filter="": build\n  cargo t\n' }]), ['build: just build', 'test: just test']);
    assert.deepEqual(commands([{ path: 'compose.yaml' }]), ['start: docker compose up']);
    assert.deepEqual(commands([{ path: 'build.gradle.kts' }, { path: 'gradlew' }]), ['build: ./gradlew build', 'test: ./gradlew test']);
  });

  it('asks only for the contents it parses', () => {
    assert.ok(wantsContent('package.json') && wantsContent('Makefile') && wantsContent('pyproject.toml'));
    assert.ok(!wantsContent('init.sh') && !wantsContent('.env') && !wantsContent('src/package.json'));
  });

  it('renders markdown sections, and says what to do when nothing was found', () => {
    const sources = detectStartup([{ path: 'go.mod' }, { path: 'init.sh' }]);
    assert.equal(renderStartup(sources), '## shell scripts\n- install: `bash init.sh`\n\n## go.mod (Go)\n- build: `go build ./...`\n- test: `go test ./...`');
    assert.equal(describeStartup(sources), 'commands from shell scripts, go.mod (Go)');
    assert.match(renderStartup([]), /No start or test commands were found[\s\S]*Ask the user/);
    assert.equal(describeStartup([]), 'no start or test commands found yet');
  });
});
