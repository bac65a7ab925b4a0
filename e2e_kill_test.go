package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// dbQuestion is one AskUserQuestion call, as the fake model sends it.
var dbQuestion = fakeprovider.Turn{Text: "One question first.", ToolCalls: []fakeprovider.ToolCall{{
	ID: "toolu_db", Name: "AskUserQuestion", Input: json.RawMessage(`{"questions":[{"question":"Which database should we use?",` +
		`"header":"Database","multiSelect":false,"options":[{"label":"PostgreSQL (Recommended)","description":"Relational"},` +
		`{"label":"SQLite","description":"Embedded"}]}]}`)}}}

// runEnv is the environment of an askuser process against srv, keeping
// its sessions in stateDir.
func runEnv(t *testing.T, srv *fakeprovider.Server, stateDir string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "ASKUSER_STATE_DIR=" + stateDir,
		"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=" + fakeKey, "NO_COLOR=1"}
}

// streamRun is `askuser run -p --output-format stream-json` with a stdin
// pipe held open, its stdout read line by line.
type streamRun struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan map[string]any
	seen  []map[string]any
}

func startStreamRun(t *testing.T, env []string, prompt string) *streamRun {
	t.Helper()
	cmd := exec.Command(askuserBin(), "run", "-p", "--output-format", "stream-json", prompt)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &streamRun{t: t, cmd: cmd, stdin: stdin, lines: make(chan map[string]any, 64)}
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var ev map[string]any
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				ev = map[string]any{"type": "not json", "line": sc.Text()}
			}
			r.lines <- ev
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return r
}

// waitLine waits for the next line of type typ and returns it.
func (r *streamRun) waitLine(typ string) map[string]any {
	r.t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case ev, ok := <-r.lines:
			if !ok {
				r.t.Fatalf("askuser's output ended before a %q line; lines so far: %v", typ, r.seen)
			}
			r.seen = append(r.seen, ev)
			if ev["type"] == typ {
				return ev
			}
		case <-timeout:
			r.t.Fatalf("no %q line within %s; lines so far: %v", typ, waitLimit, r.seen)
		}
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (r *streamRun) kill() {
	r.t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		r.t.Fatal(err)
	}
	err := r.cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		r.t.Fatalf("askuser was not killed by SIGKILL: %v", err)
	}
}

// runAskuser runs askuser to its end, bounded, and returns its exit code
// and output.
func runAskuser(t *testing.T, env []string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, askuserBin(), args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("askuser %v did not finish within %s\nstderr:\n%s", args, waitLimit, errOut.String())
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// requestsCarrying counts the requests whose body has s.
func requestsCarrying(srv *fakeprovider.Server, s string) int {
	n := 0
	for _, r := range srv.Requests() {
		if bytes.Contains(r.Body, []byte(s)) {
			n++
		}
	}
	return n
}

// killMoment is a moment to kill a run at: after the stream line of type
// after (with an answer line sent first when answer is set).
type killMoment struct {
	name   string
	after  string
	answer bool
	// waiting: the run is blocked on the question at that moment, so no
	// model call is in flight and the kill loses nothing.
	waiting bool
}

// TestKillWhileQuestionWaits kills a headless run with SIGKILL at several
// moments around a question, then resumes it from an answers file. Every
// step is journaled before askuser acts on it, so resume continues from
// the last step journaled: a question is never asked twice nor its answer
// sent twice, and only a model call whose reply the kill cut off is made
// again. A run with nothing left to do is reported as such.
func TestKillWhileQuestionWaits(t *testing.T) {
	t.Parallel()
	moments := []killMoment{
		{name: "after init", after: "system"},
		{name: "after the assistant message", after: "assistant", waiting: true},
		{name: "after the question line", after: "question", waiting: true},
		{name: "after the answer line", after: "answers", answer: true},
	}
	for _, m := range moments {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			// The final turn is served twice, for a resume that repeats a
			// call whose reply the kill cut off.
			srv := fakeprovider.NewAnthropic(dbQuestion, fakeprovider.Turn{Text: "Done.", Repeat: 2})
			defer srv.Close()
			env := runEnv(t, srv, filepath.Join(t.TempDir(), "state"))
			run := startStreamRun(t, env, "Pick a database")
			id, _ := run.waitLine("system")["session_id"].(string)
			if m.answer {
				run.waitLine("question")
				if _, err := io.WriteString(run.stdin, `{"id":"toolu_db","answers":{"Database":"SQLite"}}`+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			if m.after != "system" {
				run.waitLine(m.after)
			}
			run.kill()
			before := len(srv.Requests())

			answers := filepath.Join(t.TempDir(), "answers.yaml")
			if err := os.WriteFile(answers, []byte("answers:\n  Database: PostgreSQL\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runAskuser(t, env, "", "resume", "-p", id, "--answers", answers)
			checkResumed(t, srv, m, before, code, stdout, stderr)
		})
	}
}

// checkResumed checks a resume after a kill at moment m; before is the
// number of requests the fake had recorded when the kill returned (a
// request already sent may be recorded later).
func checkResumed(t *testing.T, srv *fakeprovider.Server, m killMoment, before, code int, stdout, stderr string) {
	t.Helper()
	total := len(srv.Requests())
	if code != 0 {
		// Allowed only when nothing was left to do: nothing journaled yet,
		// or the final reply journaled just before the kill.
		if m.waiting || code != 2 || !strings.Contains(stderr, "is not waiting on a question") {
			t.Fatalf("resume: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if total != before {
			t.Errorf("resume said there was nothing to continue, yet made %d model calls", total-before)
		}
		return
	}
	if strings.TrimSpace(stdout) != "Done." {
		t.Errorf("resume printed %q, want the final text", stdout)
	}
	for i, r := range srv.Requests() {
		if n := bytes.Count(r.Body, []byte(`"type":"tool_result"`)); n > 1 {
			t.Errorf("request %d carried %d tool results, want at most 1", i+1, n)
		}
	}
	results := srv.ToolResults()
	switch {
	case m.waiting:
		// Blocked on the question: the first call once, the second once.
		if before != 1 || total != 2 || requestsCarrying(srv, `"tool_result"`) != 1 {
			t.Errorf("requests: %d at the kill, %d in all, %d with a tool result; want 1, 2, 1", before, total, requestsCarrying(srv, `"tool_result"`))
		}
		checkOneResult(t, results, "Selected: PostgreSQL\n   Answered by: an answers file")
	case m.answer:
		// The answer was journaled before the kill, so it is sent, not asked
		// again. The second call may have been on its way when the kill
		// cut off its reply (the fake may even record it after the kill):
		// then resume makes it again, with the same tool result.
		if n := requestsCarrying(srv, `"tool_result"`); total < 2 || total > 3 || n != total-1 {
			t.Errorf("requests: %d in all, %d with a tool result; want the first call once and the second once or, cut off, twice", total, n)
		}
		checkOneResult(t, results, "Selected: SQLite\n   Answered by: a program over JSON lines (stdin)")
	default:
		// Killed during the first call: if its reply was lost, resume asks
		// the model again, and the (scripted) model then ends its turn.
		if total != 2 {
			t.Errorf("the fake saw %d requests, want 2", total)
		}
		if len(results) > 0 {
			checkOneResult(t, results, "Selected: PostgreSQL\n   Answered by: an answers file")
		}
	}
}

// checkOneResult requires exactly one tool result, for toolu_db, holding want.
func checkOneResult(t *testing.T, results []fakeprovider.ToolResultSeen, want string) {
	t.Helper()
	if len(results) != 1 || results[0].ToolUseID != "toolu_db" || results[0].IsError {
		t.Fatalf("tool results = %+v, want one for toolu_db", results)
	}
	if !strings.Contains(results[0].Content, want) {
		t.Errorf("tool result:\n%s\nwant it to contain %q", results[0].Content, want)
	}
}
