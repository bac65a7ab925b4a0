#!/usr/bin/env bash
# Saves screenshots of the web question card (askuser ask --frontend web)
# and of an approval's card with its whole input open (the demo's write of
# AUTH_PLAN.md) into docs/, at a desktop's width in light mode and a
# phone's in dark mode, for the README. It drives Debian's headless
# Chromium from a Go test (TestWebScreenshots in e2e_web_card_test.go);
# install it with apt-get install -y chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
command -v chromium >/dev/null || { echo "screenshots.sh: chromium is missing; apt-get install -y chromium" >&2; exit 1; }
ASKUSER_SCREENSHOTS="$PWD/docs" go test -count=1 -run '^TestWebScreenshots$' -v . | grep -E 'png|ok|FAIL'
# Lossless recompression keeps the committed pictures small (optional).
if command -v optipng >/dev/null; then optipng -quiet -o2 docs/web-card-*.png docs/web-approval-*.png; fi
ls -l docs/web-card-*.png docs/web-approval-*.png
