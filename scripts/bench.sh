#!/bin/sh
# bench.sh: askuser's performance figures, each against a baseline measured
# in the same run.
#
# Usage: scripts/bench.sh [-n COUNT] [-t BENCHTIME] [-o FILE] [-q]
#
#   -n COUNT      runs of every benchmark; the summary takes medians (default 5)
#   -t BENCHTIME  go test -benchtime for each run (default 1s)
#   -o FILE       also keep the raw `go test -bench` output in FILE
#   -q            quick: -n 1 -t 200ms, to check that everything runs
#
# What it does, from the repository root it finds itself in:
#   1. builds the release binary as README "Install" says (CGO_ENABLED=0,
#      -trimpath, -ldflags "-s -w", -tags urfave_cli_no_docs) and, with the
#      same flags, scripts/hello (a static hello-world, the baseline of the
#      process benchmarks), scripts/initonly (every package askuser links,
#      and nothing else), scripts/floor (the dependencies askuser must use,
#      and nothing of askuser's) and scripts/maxrss (reads a child's peak
#      RSS and page faults);
#   2. runs the package benchmarks of frontend/ (stdio round trips against
#      bare pipes), ask/, agentloop/ and internal/session/ (resuming a
#      1,000-turn session against decoding and reading its journal);
#   3. runs the whole-process benchmarks of bench_test.go and
#      bench_claude_test.go with those binaries: the binaries' sizes,
#      hello-world, init only, the floor, `askuser --version`,
#      `askuser ask --frontend file`, `askuser run -p` against a loopback
#      fake Anthropic API with its session journal on disk and on tmpfs,
#      and the same session run by Claude Code 2.1.197 when
#      scripts/install-clients.sh installed it (else it says so);
#   4. when perf is installed, `perf stat` of hello-world, the floor,
#      askuser --version and askuser ask (task clock, page faults); when
#      hyperfine is installed, hyperfine of the same; when benchstat is
#      installed, benchstat of it all;
#   5. prints the medians of every benchmark, the ratios to their
#      baselines, and the goals of issue 12 (binary size, --version RSS,
#      the ask process, the run session against Claude Code's, resuming
#      against decoding) as measured ratios (scripts/benchsummary).
#
# It needs only Go. The load average is printed before and after each step:
# figures taken under load are slower, but the ratios, measured against a
# baseline in the same run, much less so.
set -eu

count=5
benchtime=1s
keep=
while getopts n:t:o:q opt; do
	case $opt in
	n) count=$OPTARG ;;
	t) benchtime=$OPTARG ;;
	o) keep=$OPTARG ;;
	q) count=1 benchtime=200ms ;;
	*)
		sed -n '3,9p' "$0" >&2
		exit 2
		;;
	esac
done

cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/askuser-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
raw=$work/bench.txt

load() {
	if [ -r /proc/loadavg ]; then
		echo "load average ($1): $(cut -d' ' -f1-3 /proc/loadavg), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs"
	fi
}

echo "== build (release flags)"
build() { # out pkg [tags]
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" ${3:+-tags "$3"} -o "$work/$1" "$2"
	echo "$1: $(wc -c <"$work/$1" | tr -d ' ') bytes"
}
build askuser . urfave_cli_no_docs
build hello ./scripts/hello
build initonly ./scripts/initonly urfave_cli_no_docs
build floor ./scripts/floor urfave_cli_no_docs
build maxrss ./scripts/maxrss
go version

echo "== package benchmarks (-count $count -benchtime $benchtime)"
load before
go test -run '^$' -bench . -benchmem -count "$count" -benchtime "$benchtime" \
	./frontend/... ./ask/ ./agentloop/ ./internal/session/ | tee -a "$raw"
load after

echo "== process benchmarks"
load before
ASKUSER_BENCH_BINDIR=$work go test -run '^$' -bench '^Benchmark(Process|BinarySize)' -count "$count" -benchtime "$benchtime" . | tee -a "$raw"
load after

ask="$work/askuser ask --frontend file --answers testdata/answers.yaml testdata/questions/auth.json"
if command -v perf >/dev/null 2>&1; then
	echo "== perf stat (100 runs each)"
	load before
	for cmd in "$work/hello" "$work/floor --version" "$work/askuser --version" "$ask"; do
		# shellcheck disable=SC2086 # $cmd is a command line
		perf stat -r 100 -e task-clock,page-faults,context-switches $cmd 2>&1 >/dev/null |
			grep -E 'task-clock|page-faults|context-switches|elapsed' || true
	done
	load after
fi
if command -v hyperfine >/dev/null 2>&1; then
	echo "== hyperfine"
	hyperfine -N --warmup 20 "$work/hello" "$work/floor --version" "$work/askuser --version" "$ask" || true
fi
if command -v benchstat >/dev/null 2>&1; then
	echo "== benchstat"
	benchstat "$raw" || true
fi

if [ -n "$keep" ]; then
	cp "$raw" "$keep"
fi
echo
go run ./scripts/benchsummary <"$raw"
