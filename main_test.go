package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/askuser/askuser/internal/fakeprovider"
	"github.com/askuser/askuser/internal/store/pgtest"
)

// binDir holds the askuser binary built once for this test run.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "askuser-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-tags", "askuser_testchan", "-o", filepath.Join(dir, "askuser"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build askuser:", err)
		return 1
	}
	binDir = dir
	return pgtest.Run(m) // m.Run, then stop the PostgreSQL the team store's tests started
}

// askuserBin is the path of the binary under test.
func askuserBin() string { return filepath.Join(binDir, "askuser") }

// TestScripts runs the end-to-end scripts in testdata/script against the
// built binary: one concern per script (a frontend, an exit code, a way of
// suspending and resuming), each against loopback fake providers.
//
// Each command's help lists the exit codes it can return: every code a
// script sees an askuser command return must be listed, and when every
// script ran, every listed code must have been seen.
func TestScripts(t *testing.T) {
	scripts, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	ran := 0
	t.Cleanup(func() { checkExitCodes(t, ran == len(scripts) && !t.Failed()) })
	testscript.Run(t, scriptParams("testdata/script", func(*testscript.Env) {
		mu.Lock()
		ran++
		mu.Unlock()
	}))
}

// scriptParams runs the scripts of dir with askuser's commands; setup, if
// set, adds to each script's environment.
func scriptParams(dir string, setup func(e *testscript.Env)) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			if setup != nil {
				setup(e)
			}
			e.Setenv("PATH", binDir+string(os.PathListSeparator)+e.Getenv("PATH"))
			e.Setenv("ASKUSER_STATE_DIR", filepath.Join(e.WorkDir, ".state"))
			e.Setenv("NO_COLOR", "1")
			root, err := os.Getwd()
			if err != nil {
				return err
			}
			e.Setenv("ROOT", root)
			st := &scriptState{procs: map[string]*proc{}}
			for _, kv := range e.Vars {
				if k, _, ok := strings.Cut(kv, "="); ok {
					st.baseKeys = append(st.baseKeys, k)
				}
			}
			e.Values[scriptStateKey{}] = st
			return nil
		},
		Cmds:      scriptCmds(),
		Condition: scriptCondition,
	}
}

// scriptStateKey finds a script's scriptState in testscript's Values.
type scriptStateKey struct{}

// scriptState is what the custom commands of one script share: its fake
// provider and its background processes.
type scriptState struct {
	fake     *fakeprovider.Server
	procs    map[string]*proc
	baseKeys []string // the variables of the script's initial environment
}

func stateOf(ts *testscript.TestScript) *scriptState {
	return ts.Value(scriptStateKey{}).(*scriptState)
}

// scriptCmds are the commands the scripts may use besides testscript's
// own. In addition to code, fake and fakecheck below, and mkfile and
// bounded (e2e_files_test.go):
//
//	jsonlines FILE           every line of FILE (or stdout) is a JSON event with its required fields; prints their types
//	jsoncanon FILE           print the JSON lines of FILE (or stdout) with sorted keys, to match fields in any order
//	jqpath FILE PATH         FILE (or stdout) is exactly one JSON document; print its value at PATH, as jq -r .PATH does
//	jsonvar NAME FILE PATH   set $NAME to the value at PATH (a.b.0.c) in the first JSON line of FILE that has it
//	corrupt FILE last|N      tear the last line of FILE in half, or damage line N
//	backdate [-all] FILE DURATION   move the "asked" records (-all: every record) of a session journal DURATION into the past
//	bg NAME prog args...     start prog with an open stdin pipe and the script's variables askuser reads; output goes to NAME.stdout and NAME.stderr
//	feed NAME FILE           write FILE to NAME's stdin
//	closein NAME             close NAME's stdin
//	waitfor FILE REGEXP      wait (bounded) until FILE matches REGEXP
//	signal NAME INT|TERM|KILL
//	waitcode N NAME          wait (bounded) for NAME to exit with code N; its output becomes stdout and stderr
//	gen FILE PIECE...        write FILE from pieces: COUNT*TEXT repeats TEXT; \xHH is a byte (e2e_gen_test.go)
func scriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"code":      cmdCode,
		"fake":      cmdFake,
		"fakecheck": cmdFakecheck,
		"gen":       cmdGen,
	}
	maps.Copy(cmds, jsonCmds())
	maps.Copy(cmds, procCmds())
	maps.Copy(cmds, fileCmds())
	return cmds
}

// cmdCode runs a program and requires an exit code:
//
//	code N prog args...
//
// stdout and stderr are kept for the next checks.
func cmdCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: code N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("code: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("code: %v", err)
	}
	noteExit(args[1:], got, filepath.Base(ts.Getenv("WORK")))
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// fakeKey is the API key the fake providers are given; they accept any.
const fakeKey = "sk-fake-e2e"

// cmdFake starts a loopback fake provider for the rest of the script:
//
//	fake anthropic|openai TURNS.json
//
// TURNS.json is a JSON array of fakeprovider.Turn, one per model call. The
// server speaks the real wire format; the script's environment gets
// ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY (or OPENAI_BASE_URL and
// OPENAI_API_KEY) pointing at it, with the other provider's variables
// cleared. A second fake replaces the first. The server is closed when the
// script ends.
func cmdFake(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fake anthropic|openai TURNS.json")
	}
	turns, err := fakeprovider.LoadTurns(ts.MkAbs(args[1]))
	ts.Check(err)
	st := stateOf(ts)
	if st.fake != nil {
		st.fake.Close()
	}
	var srv *fakeprovider.Server
	switch args[0] {
	case "anthropic":
		srv = fakeprovider.NewAnthropic(turns...)
		ts.Setenv("ANTHROPIC_BASE_URL", srv.URL)
		ts.Setenv("ANTHROPIC_API_KEY", fakeKey)
		ts.Setenv("OPENAI_BASE_URL", "")
		ts.Setenv("OPENAI_API_KEY", "")
	case "openai":
		srv = fakeprovider.NewOpenAI(turns...)
		ts.Setenv("OPENAI_BASE_URL", srv.URL)
		ts.Setenv("OPENAI_API_KEY", fakeKey)
		ts.Setenv("ANTHROPIC_BASE_URL", "")
		ts.Setenv("ANTHROPIC_API_KEY", "")
	default:
		ts.Fatalf("fake: %q is not a provider; use anthropic or openai", args[0])
	}
	st.fake = srv
	ts.Defer(srv.Close)
}

// cmdFakecheck checks what the script's fake provider received:
//
//	fakecheck requests N        exactly N requests arrived (retries included)
//	fakecheck toolresults WANT  the tool results sent, in order, are exactly WANT
//	fakecheck body N REGEXP     the body of request N (from 1) matches REGEXP
//	fakecheck gap N DURATION    request N (from 2) came at least DURATION after request N-1
//
// WANT has $VAR expanded (as cmpenv does) and lists each distinct tool
// result once, from the request that first carried it, as
//
//	=== tool_result ID [is_error] (request N)
//	content...
//
// so it shows the content, the tool_use_id, the error flag and which model
// call carried the result.
func cmdFakecheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: fakecheck requests N | toolresults WANTFILE | body N REGEXP | gap N DURATION")
	}
	srv := stateOf(ts).fake
	if srv == nil {
		ts.Fatalf("fakecheck: no fake provider; start one with fake")
	}
	switch args[0] {
	case "requests":
		want, err := strconv.Atoi(args[1])
		ts.Check(err)
		if got := len(srv.Requests()); got != want {
			ts.Fatalf("the fake provider received %d requests, want %d", got, want)
		}
	case "toolresults":
		got := renderToolResults(srv.ToolResults())
		want := os.Expand(ts.ReadFile(args[1]), ts.Getenv)
		if got != want {
			ts.Logf("[tool results received]\n%s", got)
			ts.Fatalf("tool results differ from %s:\n%s", args[1], lineDiff(want, got))
		}
	case "body":
		if len(args) != 3 {
			ts.Fatalf("usage: fakecheck body N REGEXP")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		reqs := srv.Requests()
		if n < 1 || n > len(reqs) {
			ts.Fatalf("fakecheck body: request %d of %d", n, len(reqs))
		}
		matchOrFail(ts, args[2], string(reqs[n-1].Body), fmt.Sprintf("request %d", n))
	case "gap":
		if len(args) != 3 {
			ts.Fatalf("usage: fakecheck gap N DURATION")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		least, err := time.ParseDuration(args[2])
		ts.Check(err)
		reqs := srv.Requests()
		if n < 2 || n > len(reqs) {
			ts.Fatalf("fakecheck gap: request %d of %d", n, len(reqs))
		}
		if gap := reqs[n-1].Time.Sub(reqs[n-2].Time); gap < least {
			ts.Fatalf("request %d came %v after request %d, want at least %v", n, gap, n-1, least)
		}
	default:
		ts.Fatalf("fakecheck: unknown check %q", args[0])
	}
}

// renderToolResults writes tool results in fakecheck's WANT format.
func renderToolResults(results []fakeprovider.ToolResultSeen) string {
	var b strings.Builder
	for _, r := range results {
		flag := ""
		if r.IsError {
			flag = " is_error"
		}
		fmt.Fprintf(&b, "=== tool_result %s%s (request %d)\n%s\n", r.ToolUseID, flag, r.Request+1, r.Content)
	}
	return b.String()
}

// lineDiff shows where two texts first differ, with a little context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(i-2, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n", i+1)
	for j := from; j < i; j++ {
		fmt.Fprintf(&b, "  %s\n", w[j])
	}
	for j := i; j < min(i+3, len(w)); j++ {
		fmt.Fprintf(&b, "- %s\n", w[j])
	}
	for j := i; j < min(i+3, len(g)); j++ {
		fmt.Fprintf(&b, "+ %s\n", g[j])
	}
	return b.String()
}
