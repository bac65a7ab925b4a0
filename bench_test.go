package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// Whole-process benchmarks. Each fork-execs a release build of askuser b.N
// times and, between its runs, a static hello-world built with the same
// flags (scripts/hello), so every figure comes with a baseline measured in
// the same run and under the same load. Besides ns/op (askuser's runs
// only) each reports medians, which a noisy machine disturbs less than
// means:
//
//	ms/run        median wall time of one askuser process
//	hello-ms/run  median wall time of one hello-world process
//	x-hello       the ratio of the two
//	maxrss-KiB    median peak resident set of askuser (rusage ru_maxrss)
//	hello-KiB     the same for hello-world
//	minflt        median minor page faults of askuser: start-up is mostly
//	              faulting in windows of the binary (scripts/maxrss)
//
// Peak RSS is read through scripts/maxrss, in a few extra runs after the
// timed ones: a child of this (large) test process would report this
// process's peak instead of its own (see scripts/maxrss). hello-world is
// about as small as maxrss itself, so its figure is only approximate.
//
// scripts/bench.sh builds the binaries once and passes their directory in
// ASKUSER_BENCH_BINDIR; without it they are built here, once per run.

// benchBins are the binaries the process benchmarks run.
type benchBins struct {
	askuser, hello, initonly, floor, maxrss string
}

var (
	benchOnce    sync.Once
	benchBinsVal benchBins
	benchErr     error
)

// releaseBins returns the release binaries, building them on first use
// with the flags README "Install" gives.
func releaseBins(b *testing.B) benchBins {
	b.Helper()
	benchOnce.Do(func() {
		dir := os.Getenv("ASKUSER_BENCH_BINDIR")
		if dir == "" {
			dir = filepath.Join(binDir, "release")
			benchErr = buildRelease(dir)
		}
		benchBinsVal = benchBins{
			askuser:  filepath.Join(dir, "askuser"),
			hello:    filepath.Join(dir, "hello"),
			initonly: filepath.Join(dir, "initonly"),
			floor:    filepath.Join(dir, "floor"),
			maxrss:   filepath.Join(dir, "maxrss"),
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchBinsVal
}

// buildRelease builds askuser as released and its two baselines with the
// same flags.
func buildRelease(dir string) error {
	for _, t := range []struct{ out, pkg, tags string }{
		{"askuser", ".", "urfave_cli_no_docs"},
		{"hello", "./scripts/hello", ""},
		{"initonly", "./scripts/initonly", "urfave_cli_no_docs"},
		{"floor", "./scripts/floor", "urfave_cli_no_docs"},
		{"maxrss", "./scripts/maxrss", ""},
	} {
		args := []string{"build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(dir, t.out)}
		if t.tags != "" {
			args = append(args, "-tags", t.tags)
		}
		cmd := exec.Command("go", append(args, t.pkg)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", t.out, err, out)
		}
	}
	return nil
}

// benchProc is one process to run: its stdin, environment and the output it
// must print for the run to count.
type benchProc struct {
	path    string
	args    []string
	env     []string // added to the benchmark's environment
	fullEnv []string // when set, the whole environment instead
	dir     string   // working directory; "" is this one
	stdin   string
	want    string // stdout must contain this; "" checks nothing
}

// run runs p once and returns its wall time. Output goes to a buffer only
// when it is checked, else to /dev/null.
func (p benchProc) run(b *testing.B) time.Duration {
	b.Helper()
	start := time.Now()
	p.exec(b, p.path, p.args)
	return time.Since(start)
}

// rss runs p once under scripts/maxrss and returns its peak RSS in KiB
// and its minor page faults.
func (p benchProc) rss(b *testing.B) (peak, minflt int64) {
	b.Helper()
	report := filepath.Join(b.TempDir(), "maxrss")
	p.exec(b, releaseBins(b).maxrss, append([]string{report, p.path}, p.args...))
	data, err := os.ReadFile(report)
	if err != nil {
		b.Fatal(err)
	}
	var wall int64
	if _, err := fmt.Sscanf(string(data), "maxrss_kib=%d wall_ns=%d minflt=%d", &peak, &wall, &minflt); err != nil {
		b.Fatalf("maxrss report %q: %v", data, err)
	}
	return peak, minflt
}

func (p benchProc) exec(b *testing.B, path string, args []string) {
	b.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = append(benchEnv(), p.env...)
	if p.fullEnv != nil {
		cmd.Env = p.fullEnv
	}
	cmd.Dir = p.dir
	if p.stdin != "" {
		cmd.Stdin = strings.NewReader(p.stdin)
	}
	var stdout, stderr bytes.Buffer
	if p.want != "" {
		cmd.Stdout = &stdout
	}
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v\n%s", filepath.Base(path), strings.Join(args, " "), err, stderr.String())
	}
	if !strings.Contains(stdout.String(), p.want) {
		b.Fatalf("%s: stdout %q does not contain %q", filepath.Base(p.path), stdout.String(), p.want)
	}
}

// benchEnv is this process's environment without askuser's own variables
// (ASKUSER_NOTIFY_CMD, ASKUSER_FRONTEND...), so a setting of the person
// running the benchmarks cannot change what is measured.
func benchEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ASKUSER_") {
			env = append(env, kv)
		}
	}
	return env
}

func median[T int64 | time.Duration](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// rssRuns is how many runs under scripts/maxrss give the peak RSS: peak
// memory varies far less from run to run than time does.
const rssRuns = 5

// benchProcess runs next() b.N times (timed) and hello-world as often
// (untimed), then measures both processes' peak RSS, and reports. next
// returns the process to run, after any untimed setup it needs.
func benchProcess(b *testing.B, next func(b *testing.B) benchProc) {
	hello := benchProc{path: releaseBins(b).hello, want: "hello, world"}
	var wall, helloWall []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		helloWall = append(helloWall, hello.run(b))
		p := next(b)
		b.StartTimer()
		wall = append(wall, p.run(b))
	}
	b.StopTimer()
	var rss, helloRSS, faults []int64
	for range rssRuns {
		peak, minflt := next(b).rss(b)
		rss, faults = append(rss, peak), append(faults, minflt)
		peak, _ = hello.rss(b)
		helloRSS = append(helloRSS, peak)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(median(wall)), "ms/run")
	b.ReportMetric(ms(median(helloWall)), "hello-ms/run")
	b.ReportMetric(float64(median(wall))/float64(median(helloWall)), "x-hello")
	b.ReportMetric(float64(median(rss)), "maxrss-KiB")
	b.ReportMetric(float64(median(helloRSS)), "hello-KiB")
	b.ReportMetric(float64(median(faults)), "minflt")
}

// BenchmarkProcessHello is the baseline alone: hello-world against itself.
func BenchmarkProcessHello(b *testing.B) {
	hello := benchProc{path: releaseBins(b).hello, want: "hello, world"}
	benchProcess(b, func(*testing.B) benchProc { return hello })
}

// BenchmarkProcessInitOnly runs a binary that links all of askuser's
// packages and exits at once: what loading the binary and initialising
// the packages costs before askuser does anything.
func BenchmarkProcessInitOnly(b *testing.B) {
	p := benchProc{path: releaseBins(b).initonly}
	benchProcess(b, func(*testing.B) benchProc { return p })
}

// BenchmarkProcessFloor runs scripts/floor --version: the dependencies
// askuser must use, linked and initialised, and nothing of askuser's own.
func BenchmarkProcessFloor(b *testing.B) {
	p := benchProc{path: releaseBins(b).floor, args: []string{"--version"}, want: "floor version"}
	benchProcess(b, func(*testing.B) benchProc { return p })
}

// BenchmarkProcessVersion runs askuser --version: start-up and exit.
func BenchmarkProcessVersion(b *testing.B) {
	p := benchProc{path: releaseBins(b).askuser, args: []string{"--version"}, want: "askuser version"}
	benchProcess(b, func(*testing.B) benchProc { return p })
}

// BenchmarkBinarySize reports the size in bytes of the release binary and
// of its two baselines, built with the same flags (it times nothing).
func BenchmarkBinarySize(b *testing.B) {
	bins := releaseBins(b)
	size := func(path string) float64 {
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		return float64(st.Size())
	}
	for range b.N {
		size(bins.askuser)
	}
	b.ReportMetric(size(bins.askuser), "askuser-bytes")
	b.ReportMetric(size(bins.floor), "floor-bytes")
	b.ReportMetric(size(bins.hello), "hello-bytes")
}

// BenchmarkProcessAskFile answers testdata/questions/auth.json from
// testdata/answers.yaml: the shortest complete askuser ask.
func BenchmarkProcessAskFile(b *testing.B) {
	p := benchProc{
		path: releaseBins(b).askuser,
		args: []string{"ask", "--frontend", "file", "--answers", "testdata/answers.yaml", "testdata/questions/auth.json"},
		want: "Selected: JWT",
	}
	benchProcess(b, func(*testing.B) benchProc { return p })
}

// BenchmarkProcessRunPrint runs a two-turn session headless against a
// loopback fake Anthropic API: the model asks the auth questions, the auto
// policy answers, the model replies. The session journal syncs every
// record; state=tmpfs keeps it on /dev/shm, where a sync costs nothing, so
// the difference from state=disk is what durability costs.
func BenchmarkProcessRunPrint(b *testing.B) {
	input, err := os.ReadFile("testdata/questions/auth.json")
	if err != nil {
		b.Fatal(err)
	}
	dirs := []struct{ name, parent string }{{"disk", ""}, {"tmpfs", "/dev/shm"}}
	for _, d := range dirs {
		b.Run("state="+d.name, func(b *testing.B) {
			if d.parent != "" {
				if st, err := os.Stat(d.parent); err != nil || !st.IsDir() {
					b.Skipf("no %s on this machine", d.parent)
				}
			}
			state, err := os.MkdirTemp(d.parent, "askuser-bench-state-")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { os.RemoveAll(state) })
			fakes := newFakeRuns(b, input, checkRunServed)
			benchProcess(b, func(b *testing.B) benchProc {
				srv := fakes.next(b)
				return benchProc{
					path: releaseBins(b).askuser,
					args: []string{"run", "-p", "--provider", "anthropic", "--base-url", srv.URL, "--api-key", "bench",
						"--frontend", "auto", "--state-dir", state, "Add authentication to my app"},
					env:  []string{"NO_COLOR=1"},
					want: runPrintDone,
				}
			})
			fakes.done(b)
		})
	}
}

// fakeRuns gives each run of a process benchmark a fresh fake Anthropic
// API scripted with runPrintTurns, and checks with served that the run
// before used it as it should.
type fakeRuns struct {
	input  []byte
	served func(*testing.B, *fakeprovider.Server)
	srv    *fakeprovider.Server
	// serve starts the fake API; nil means fakeprovider.NewAnthropic.
	serve func(...fakeprovider.Turn) *fakeprovider.Server
}

func newFakeRuns(b *testing.B, input []byte, served func(*testing.B, *fakeprovider.Server)) *fakeRuns {
	f := &fakeRuns{input: input, served: served}
	b.Cleanup(func() {
		if f.srv != nil {
			f.srv.Close()
		}
	})
	return f
}

// next checks and closes the previous run's server and starts this run's.
func (f *fakeRuns) next(b *testing.B) *fakeprovider.Server {
	if f.srv != nil {
		f.served(b, f.srv)
		f.srv.Close()
	}
	serve := f.serve
	if serve == nil {
		serve = fakeprovider.NewAnthropic
	}
	f.srv = serve(runPrintTurns(f.input)...)
	return f.srv
}

// done checks the last run's server.
func (f *fakeRuns) done(b *testing.B) { f.served(b, f.srv) }

// runPrintTurns are the model's two turns in a run -p benchmark: it asks
// the question set input, then ends with runPrintDone.
func runPrintTurns(input []byte) []fakeprovider.Turn {
	return []fakeprovider.Turn{
		{Text: "I need two decisions first.", ToolCalls: []fakeprovider.ToolCall{
			{ID: "toolu_bench", Name: "AskUserQuestion", Input: json.RawMessage(input)}}},
		{Text: runPrintDone},
	}
}

const runPrintDone = "Done: OAuth 2.0 with Google."

// checkRunServed fails the benchmark unless the run used both turns and
// sent back an answer chosen by the policy.
func checkRunServed(b *testing.B, srv *fakeprovider.Server) {
	b.Helper()
	if n := srv.Remaining(); n != 0 {
		b.Fatalf("the run left %d scripted turns unused", n)
	}
	results := srv.ToolResults()
	if len(results) != 1 || results[0].IsError || !strings.Contains(results[0].Content, "recommended-option policy") {
		b.Fatalf("tool results %+v: want one answered by the policy", results)
	}
}
