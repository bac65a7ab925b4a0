#!/bin/sh
# bench.sh: askuser's performance figures, each against a baseline measured
# in the same run.
#
# Usage: scripts/bench.sh [-n COUNT] [-t BENCHTIME] [-o FILE] [-q] [-l] [-b REV]
#
#   -n COUNT      runs of every benchmark; the summary takes medians (default 5)
#   -t BENCHTIME  go test -benchtime for each run (default 1s)
#   -o FILE       also keep the raw `go test -bench` output in FILE
#   -q            quick: -n 1 -t 200ms, to check that everything runs
#   -l            lean: only issue 33's table (binary, hook, run -p, --version;
#                 default -n 3 -t 20x); exits 1 when the binary passes 30 MB
#   -b REV        with -l, also build askuser at git revision REV and measure
#                 it in the same run, turn about, as the table's "before"
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
#      baselines, the goals of issue 12 (binary size, --version RSS,
#      the ask process, the run session against Claude Code's, resuming
#      against decoding) as measured ratios, and the table of issue 33
#      (binary size, askuser hook, run -p, --version) (scripts/benchsummary).
#
# With -l it does only what issue 33's table needs: step 1, the process
# benchmarks BinarySize, Hello, Version, Hook and RunPrint (Anthropic and
# OpenAI-compatible), and the table (benchsummary -lean), which .ci/run
# prints; with -b REV each of the COUNT rounds measures REV's askuser
# first, then this tree's, against the same hello-world.
#
# It needs only Go. The load average is printed before and after each step:
# figures taken under load are slower, but the ratios, measured against a
# baseline in the same run, much less so.
set -eu

count=
benchtime=
keep=
lean=
before=
while getopts n:t:o:qlb: opt; do
	case $opt in
	n) count=$OPTARG ;;
	t) benchtime=$OPTARG ;;
	o) keep=$OPTARG ;;
	q) count=1 benchtime=200ms ;;
	l) lean=1 ;;
	b) before=$OPTARG ;;
	*)
		sed -n '3,14p' "$0" >&2
		exit 2
		;;
	esac
done
if [ -n "$before" ] && [ -z "$lean" ]; then
	echo "bench.sh: -b REV compares issue 33's table only: add -l" >&2
	exit 2
fi
if [ -n "$lean" ]; then
	count=${count:-3} benchtime=${benchtime:-20x}
else
	count=${count:-5} benchtime=${benchtime:-1s}
fi

cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/askuser-bench.XXXXXX")
# The binaries live on tmpfs where there is one that runs programs: there
# the page cache holds a file in 4 KiB pages, so a process's peak RSS is
# what it touches (in fault-around windows, see scripts/maxrss). On ext4
# and other filesystems with large folios a binary may sit in the page
# cache in folios of up to 2 MiB, mapped whole, so its peak RSS depends
# on how the file came into the cache: the same askuser --version read
# 23 MiB freshly written and 44 MiB read back from disk.
bins=
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	bins=$(mktemp -d /dev/shm/askuser-bench-bin.XXXXXX)
	printf '#!/bin/sh\n' >"$bins/probe" && chmod +x "$bins/probe"
	if ! "$bins/probe" 2>/dev/null; then
		rm -rf "$bins"
		bins=
	fi
fi
if [ -z "$bins" ]; then
	bins=$work/bin
	mkdir "$bins"
	echo "no tmpfs that runs programs: the binaries run from $bins, and their peak RSS depends on the page cache"
fi
trap 'rm -rf "$work" "$bins"' EXIT INT TERM
raw=$work/bench.txt

load() {
	if [ -r /proc/loadavg ]; then
		echo "load average ($1): $(cut -d' ' -f1-3 /proc/loadavg), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs"
	fi
}

echo "== build (release flags)"
build() { # out pkg [tags]
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" ${3:+-tags "$3"} -o "$bins/$1" "$2"
	echo "$1: $(wc -c <"$bins/$1" | tr -d ' ') bytes"
}
build askuser . urfave_cli_no_docs
build hello ./scripts/hello
build initonly ./scripts/initonly urfave_cli_no_docs
build floor ./scripts/floor urfave_cli_no_docs
build maxrss ./scripts/maxrss
go version

if [ -n "$lean" ]; then
	lean='^Benchmark(BinarySize|Process(Hello|Version|Hook|RunPrint|RunPrintOpenAI))$'
	if [ -n "$before" ]; then
		# REV's tree, built with the same flags; its baselines are this run's.
		mkdir "$bins/before" "$work/before-src"
		git archive "$before" | tar -x -C "$work/before-src"
		(cd "$work/before-src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -tags urfave_cli_no_docs -o "$bins/before/askuser" .)
		echo "askuser at $before: $(wc -c <"$bins/before/askuser" | tr -d ' ') bytes"
		for f in hello initonly floor maxrss; do cp "$bins/$f" "$bins/before/"; done
	fi
	echo "== issue 33's process benchmarks (-count $count -benchtime $benchtime)"
	load before
	round() { # bindir pkg-prefix: one round of the benchmarks, kept in $raw
		if ! ASKUSER_BENCH_BINDIR=$1 go test -run '^$' -bench "$lean" -count 1 -benchtime "$benchtime" . >"$work/round.txt"; then
			cat "$work/round.txt"
			exit 1
		fi
		sed "s/^pkg: /pkg: $2/" "$work/round.txt" | tee -a "$raw"
	}
	for _ in $(seq "$count"); do
		if [ -n "$before" ]; then
			round "$bins/before" before:
		fi
		round "$bins" ""
	done
	load after
	if [ -n "$keep" ]; then
		cp "$raw" "$keep"
	fi
	echo
	go run ./scripts/benchsummary -lean <"$raw"
	exit
fi

# teebench runs a command, showing its output as it comes and keeping it
# in $raw, and fails when the command fails (a pipe into tee alone would
# hide a benchmark that failed).
teebench() {
	{
		status=0
		"$@" || status=$?
		echo "$status" >"$work/status"
	} | tee -a "$raw"
	[ "$(cat "$work/status")" = 0 ]
}

echo "== package benchmarks (-count $count -benchtime $benchtime)"
load before
teebench go test -run '^$' -bench . -benchmem -count "$count" -benchtime "$benchtime" \
	./frontend/... ./ask/ ./agentloop/ ./internal/session/
load after

echo "== process benchmarks"
load before
ASKUSER_BENCH_BINDIR=$bins teebench go test -run '^$' -bench '^Benchmark(Process|BinarySize)' -count "$count" -benchtime "$benchtime" .
load after

ask="$bins/askuser ask --frontend file --answers testdata/answers.yaml testdata/questions/auth.json"
if command -v perf >/dev/null 2>&1; then
	echo "== perf stat (100 runs each)"
	load before
	for cmd in "$bins/hello" "$bins/floor --version" "$bins/askuser --version" "$ask"; do
		# shellcheck disable=SC2086 # $cmd is a command line
		perf stat -r 100 -e task-clock,page-faults,context-switches $cmd 2>&1 >/dev/null |
			grep -E 'task-clock|page-faults|context-switches|elapsed' || true
	done
	load after
fi
if command -v hyperfine >/dev/null 2>&1; then
	echo "== hyperfine"
	hyperfine -N --warmup 20 "$bins/hello" "$bins/floor --version" "$bins/askuser --version" "$ask" || true
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
