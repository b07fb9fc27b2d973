#!/usr/bin/env bash
# Installs what the real-VS Code tests need, once per machine: Debian's Chromium (the browser the
# tests drive), and code-server 4.100.3 (= VS Code 1.100.3) into a fixed cache folder outside the
# clone, so later runs reuse it. Building code-server's native modules needs compilers and
# headers, so those Debian packages are installed only when code-server itself is missing.
set -euo pipefail
CACHE="${CLAUDE_MEMORY_CACHE:-/var/cache/claude-workspace-memory}"
CS_VERSION="4.100.3"
CS_DIR="$CACHE/code-server-$CS_VERSION"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"

cs_installed() { [ -f "$CS_ENTRY" ] && [ -f "$CS_DIR/.complete" ]; }

apt_install() {
  if [ "$(id -u)" != 0 ]; then echo "install-test-deps: need root for apt-get install $*" >&2; exit 1; fi
  echo "install-test-deps: installing Debian packages: $*"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if ! cs_installed; then
  command -v rg >/dev/null 2>&1 || need+=(ripgrep)
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || need+=(build-essential)
  command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
  [ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
  [ -f /usr/include/X11/Xlib.h ] || need+=(libx11-dev)
  [ -f /usr/include/X11/extensions/XKBfile.h ] || need+=(libxkbfile-dev)
  [ -f /usr/include/libsecret-1/libsecret/secret.h ] || need+=(libsecret-1-dev)
fi
if [ "${#need[@]}" -gt 0 ]; then apt_install "${need[@]}"; fi

if cs_installed; then
  exit 0
fi
echo "install-test-deps: installing code-server $CS_VERSION into $CS_DIR"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR"
# Root installs need unsafe-perm; npx (node-gyp) must not prompt; Node's headers are local
# (/usr/include/node), so node-gyp must not download them.
export npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir=/usr
TMPDIR="${TMPDIR:-/tmp}"
export TMPDIR
# @vscode/ripgrep downloads rg from GitHub in postinstall; seed its cache with Debian's rg.
mkdir -p "$TMPDIR/vscode-ripgrep-cache-1.15.11"
tar czf "$TMPDIR/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
npm install --prefix "$CS_DIR" --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION"
test -f "$CS_ENTRY"
touch "$CS_DIR/.complete"
echo "install-test-deps: done"
