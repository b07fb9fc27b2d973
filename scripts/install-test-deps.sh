#!/usr/bin/env bash
# Installs what the real-VS Code tests need, once per machine: Debian packages (Chromium, build
# tools for code-server's native modules) and code-server 4.100.3 (= VS Code 1.100.3) into a
# fixed cache folder outside the clone, so later runs reuse it.
set -euo pipefail
CACHE="${CLAUDE_MEMORY_CACHE:-/var/cache/claude-workspace-memory}"
CS_VERSION="4.100.3"
CS_DIR="$CACHE/code-server-$CS_VERSION"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"

need_apt=""
for bin in chromium rg curl; do command -v "$bin" >/dev/null 2>&1 || need_apt=1; done
[ -f /usr/include/gssapi/gssapi.h ] || need_apt=1
[ -f /usr/include/X11/extensions/XKBfile.h ] || need_apt=1
if [ -n "$need_apt" ]; then
  if [ "$(id -u)" != 0 ]; then echo "install-test-deps: need root for apt-get" >&2; exit 1; fi
  echo "install-test-deps: installing Debian packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev \
    chromium ripgrep curl >/dev/null
fi

if [ -f "$CS_ENTRY" ] && [ -f "$CS_DIR/.complete" ]; then
  exit 0
fi
echo "install-test-deps: installing code-server $CS_VERSION into $CS_DIR"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR"
export npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir=/usr
TMPDIR="${TMPDIR:-/tmp}"
export TMPDIR
# @vscode/ripgrep downloads rg from GitHub in postinstall; seed its cache with Debian's rg.
mkdir -p "$TMPDIR/vscode-ripgrep-cache-1.15.11"
tar czf "$TMPDIR/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C /usr/bin rg
npm install --prefix "$CS_DIR" --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION"
test -f "$CS_ENTRY"
touch "$CS_DIR/.complete"
echo "install-test-deps: done"
