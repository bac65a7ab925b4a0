#!/usr/bin/env bash
# test.sh: README's test command. Installs the pinned real clients the
# end-to-end tests run against (Claude Code 2.1.197, 2.1.330 and 2.1.332,
# Codex CLI 0.169.0 and 0.171.0, Gemini CLI 0.61.0, OpenCode 1.18.33, the MCP
# reference servers;
# scripts/install-clients.sh, into the git-ignored .tools/), then runs
# every test: go test ./... (arguments are passed on,
# e.g. scripts/test.sh -run TestScripts -count=1), and at the end lists
# the tests that were skipped, with why.
#
# Where a client cannot be installed here (no node/npm, no registry), or
# Chromium or PostgreSQL is missing, it says which tests will be skipped and
# how to run them; under CI=true those tests fail instead of skipping.
set -uo pipefail
cd "$(dirname "$0")/.."

if command -v npm >/dev/null 2>&1; then
  if ! scripts/install-clients.sh; then
    echo "test.sh: the real clients could not be installed (above); the tests that run Claude Code, Codex, Gemini CLI, OpenCode and the MCP reference servers will be skipped" >&2
  fi
else
  echo "test.sh: npm not found: the tests that run Claude Code, Codex, Gemini CLI, OpenCode and the MCP reference servers will be skipped; install Node.js and npm, then run scripts/test.sh again" >&2
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "test.sh: chromium not found: the browser tests of the web card will be skipped; install it with: sudo apt-get install -y chromium" >&2
fi
if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
  echo "test.sh: pgbouncer not found: the team store's test through a pooler will be skipped; install it with: sudo apt-get install -y pgbouncer" >&2
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  echo "test.sh: PostgreSQL not found: the team store's tests (--store postgres://…) will be skipped; install it with: sudo apt-get install -y postgresql" >&2
fi

# go test -json, printed as plain go test prints (package lines, failing
# tests' output), then the tests that were skipped and why
# (scripts/testsummary): a skip is never silent. go test's status is the
# script's.
go build -o "${TMPDIR:-/tmp}/askuser-testsummary.$$" ./scripts/testsummary || exit 1
trap 'rm -f "${TMPDIR:-/tmp}/askuser-testsummary.$$"' EXIT
go test -json "$@" ./... | "${TMPDIR:-/tmp}/askuser-testsummary.$$"
exit "${PIPESTATUS[0]}"
