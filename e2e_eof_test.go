// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Input that ends: every request read before the end is answered before
// askuser exits, run after run. Each test pipes its whole input in and
// closes it, as a script or a CI step does, many times over: the reply
// that used to go missing went missing in most runs, not all.

const eofRuns = 25

// pipedRun runs askuser with stdin the bytes of in, closed after them, and
// returns its standard output and exit code.
func pipedRun(t *testing.T, env []string, in string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(askuserBin(), args...)
	cmd.Dir, cmd.Env = repoRoot(t), append(append(os.Environ(), "NO_COLOR=1", "ASKUSER_FRONTEND=", "ASKUSER_ANSWERS="), env...)
	cmd.Stdin = strings.NewReader(in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// replyIDs are the ids of the JSON-RPC responses in out.
func replyIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("askuser mcp wrote a line that is not JSON: %q", sc.Text())
		}
		if m.Method == "" && len(m.ID) > 0 {
			ids = append(ids, string(m.ID))
		}
	}
	return ids
}

// askuser mcp with initialize, initialized and tools/list piped in and
// closed answers both requests, every run; so does a tools/call answered
// from a file, sent last.
func TestMCPAnswersEveryRequestBeforeItsInputEnds(t *testing.T) {
	answers := filepath.Join(t.TempDir(), "ci.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  Which region?: eu-north\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ci","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"AskUserQuestion","arguments":{"questions":[` +
		`{"question":"Which region?","header":"Region","multiSelect":false,"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}}}` + "\n"
	env := []string{"ASKUSER_STATE_DIR=" + t.TempDir()}
	missed := 0
	for run := range eofRuns {
		out, errOut, code := pipedRun(t, env, in, "mcp", "--answers", answers)
		ids := replyIDs(t, out)
		slices.Sort(ids) // calls run at once: their replies come in any order
		if code != 0 || strings.Join(ids, ",") != `"three",1,2` {
			missed++
			t.Errorf("run %d: exit %d, replies to %v, want 1, 2 and \"three\"\n%s\n%s", run, code, ids, out, errOut)
		} else if !strings.Contains(out, `Selected: eu-north`) {
			t.Errorf("run %d: the call's result:\n%s", run, out)
		}
		if missed > 2 {
			t.Fatalf("replies missing in %d of %d runs", missed, run+1)
		}
	}
}

// askuser hook reads its event to the end of its input, then decides:
// every run prints the decision.
func TestHookDecidesEveryRunItsInputEnds(t *testing.T) {
	answers := filepath.Join(t.TempDir(), "ci.yaml")
	if err := os.WriteFile(answers, []byte("approvals:\n  allow:\n    - Bash(git status:*)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ev := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + repoRoot(t) + `","tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"git status"}}`
	env := []string{"ASKUSER_STATE_DIR=" + t.TempDir()}
	for run := range eofRuns {
		out, errOut, code := pipedRun(t, env, ev, "hook", "--answers", answers)
		if code != 0 || !strings.Contains(out, `"permissionDecision":"allow"`) {
			t.Fatalf("run %d: exit %d\n%s\n%s", run, code, out, errOut)
		}
	}
}

// JSON lines: a question set and its answer line piped in and closed
// (askuser ask - --frontend stdio): the answer is taken, every run.
func TestJSONLinesAnswersReadBeforeTheEndAreTaken(t *testing.T) {
	q, err := os.ReadFile("testdata/questions/database.json")
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, q); err != nil {
		t.Fatal(err)
	}
	in := compact.String() + "\n" + `{"type":"answer","id":"set1","answers":{"Which database should we use for this project?":"SQLite"}}` + "\n"
	env := []string{"ASKUSER_STATE_DIR=" + t.TempDir()}
	for run := range eofRuns {
		out, errOut, code := pipedRun(t, env, in, "ask", "-", "--id", "set1", "--frontend", "stdio")
		if code != 0 || !strings.Contains(out, "Selected: SQLite") {
			t.Fatalf("run %d: exit %d\n%s\n%s", run, code, out, errOut)
		}
	}
}
