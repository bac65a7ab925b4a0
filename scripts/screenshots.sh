#!/usr/bin/env bash
# Saves the manual's screenshots into docs/: the web question card
# (askuser ask --frontend web) and an approval's card with its whole input
# open (the demo's write of AUTH_PLAN.md), at a desktop's width in light
# mode and a phone's in dark mode (TestWebScreenshots in
# e2e_web_card_test.go); and the terminal prompt moving between the
# questions of a set, drawn from a real pseudo-terminal's cells
# (TestTerminalScreenshots in e2e_terminal_shots_test.go). Both drive
# Debian's headless Chromium from a Go test; install it with
# apt-get install -y chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
command -v chromium >/dev/null || { echo "screenshots.sh: chromium is missing; apt-get install -y chromium" >&2; exit 1; }
ASKUSER_SCREENSHOTS="$PWD/docs" go test -count=1 -run '^(TestWebScreenshots|TestTerminalScreenshots)$' -v . | grep -E 'png|ok|FAIL'
# Lossless recompression keeps the committed pictures small (optional).
shots=(docs/web-card-*.png docs/web-approval-*.png docs/terminal-moves.png)
if command -v optipng >/dev/null; then optipng -quiet -o2 "${shots[@]}"; fi
ls -l "${shots[@]}"
