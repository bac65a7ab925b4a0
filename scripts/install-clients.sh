#!/usr/bin/env bash
# install-clients.sh: installs the real MCP hosts and servers that askuser's
# end-to-end tests run against, at pinned versions, into .tools/ at the
# repository root (git-ignored; never commit it: node_modules is large).
#
# Usage: scripts/install-clients.sh
#
# Each package gets its own npm prefix, named after the pinned version, so
# two versions of Claude Code sit side by side and a test finds a binary
# by path alone (internal/clients knows the same names):
#   .tools/claude-2.1.197/bin/claude
#   .tools/claude-2.1.330/bin/claude
#   .tools/claude-2.1.332/bin/claude
#   .tools/server-filesystem-2026.8.31/bin/mcp-server-filesystem
#   .tools/server-everything-2026.8.31/bin/mcp-server-everything
#   .tools/codex-0.169.0/bin/codex
#   .tools/codex-0.171.0/bin/codex
#   .tools/gemini-0.61.0/bin/gemini
#   .tools/opencode-1.18.33/bin/opencode
#
# Idempotent: a prefix holding the marker .installed with the right
# package@version is skipped. A prefix without it (an interrupted install)
# is removed and installed again, so a half install is never used.
# Quiet on success. On failure it exits non-zero, naming the package and
# showing the tail of npm's output. It needs node and npm (the machine's)
# and the npm registry; it prints no environment and no npm config.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"

# dir|package@version|binary: keep in step with internal/clients.
pins=(
  "claude-2.1.197|@anthropic-ai/claude-code@2.1.197|claude"
  "claude-2.1.330|@anthropic-ai/claude-code@2.1.330|claude"
  "claude-2.1.332|@anthropic-ai/claude-code@2.1.332|claude"
  "server-filesystem-2026.8.31|@modelcontextprotocol/server-filesystem@2026.8.31|mcp-server-filesystem"
  "server-everything-2026.8.31|@modelcontextprotocol/server-everything@2026.8.31|mcp-server-everything"
  "codex-0.169.0|@openai/codex@0.169.0|codex"
  "codex-0.171.0|@openai/codex@0.171.0|codex"
  "gemini-0.61.0|@google/gemini-cli@0.61.0|gemini"
  "opencode-1.18.33|opencode-ai@1.18.33|opencode"
)

fail() {
  echo "install-clients: $*" >&2
  exit 1
}

command -v node >/dev/null || fail "node not found on PATH: install Node.js (the machine's, see README) and run again"
command -v npm >/dev/null || fail "npm not found on PATH: install npm with Node.js and run again"
mkdir -p "$tools" || fail "cannot create $tools"

# install DIR SPEC BIN installs SPEC into .tools/DIR unless already there.
install() {
  local dir="$tools/$1" spec=$2 bin=$3
  if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$spec" ] && [ -x "$dir/bin/$bin" ]; then
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  local log="$dir.log"
  # --global with --prefix gives DIR/bin/BIN and DIR/lib/node_modules;
  # no lock file, no audit, no funding notes: nothing is written outside
  # DIR but npm's own cache.
  if ! npm install --global --prefer-offline --prefix "$dir" --no-audit --no-fund --no-update-notifier \
    --loglevel=error "$spec" >"$log" 2>&1; then
    echo "install-clients: npm install $spec failed; the end of its output (all of it: $log):" >&2
    tail -n 20 "$log" >&2
    rm -rf "$dir"
    exit 1
  fi
  if [ ! -x "$dir/bin/$bin" ]; then
    rm -rf "$dir"
    fail "npm installed $spec but $1/bin/$bin is missing (see $log)"
  fi
  echo "$spec" >"$dir/.installed"
  rm -f "$log"
}

for pin in "${pins[@]}"; do
  IFS='|' read -r dir spec bin <<<"$pin"
  install "$dir" "$spec" "$bin"
done

# A Claude Code, Codex or OpenCode whose native binary did not land (an
# optional platform package npm skipped) installs fine and fails only when
# run: run each client now, and check it is the pinned version.
check() {
  local dir=$1 bin=$2 want=$3 got
  got=$("$tools/$dir/bin/$bin" --version 2>&1) ||
    fail "$dir/bin/$bin --version failed: $got (remove .tools/$dir and run again)"
  case "$got" in
    "$want"*) ;;
    *) fail "$dir/bin/$bin --version printed '$got', want $want (remove .tools/$dir and run again)" ;;
  esac
}
check claude-2.1.197 claude 2.1.197
check claude-2.1.330 claude 2.1.330
check claude-2.1.332 claude 2.1.332
check codex-0.169.0 codex "codex-cli 0.169.0"
check codex-0.171.0 codex "codex-cli 0.171.0"
check gemini-0.61.0 gemini 0.61.0
check opencode-1.18.33 opencode 1.18.33
