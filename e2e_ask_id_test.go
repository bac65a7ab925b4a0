// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// Two askings of one id outside a session (askuser ask --id deploy run by
// two CI runners, two hooks or MCP calls that carry the same tool_use_id)
// are two questions: each has its own card and its own mailbox, and one
// answer releases one of them, never both. The files store and the team
// store (a real PostgreSQL, the runners on two machines) alike.

// askedKeys waits for the inbox's first page to list n sets asked outside
// a session, and returns their pages' paths.
func (ic *teamInbox) askedKeys(t *testing.T, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		_, home := ic.get(t, "")
		var paths []string
		for _, m := range askedSet.FindAllStringSubmatch(home, -1) {
			if p := "q/" + m[1]; !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
		if len(paths) >= n {
			if len(paths) > n {
				t.Fatalf("the inbox lists %d sets asked outside a session, want %d:\n%s", len(paths), n, home)
			}
			return paths
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox lists %d sets asked outside a session, want %d:\n%s", len(paths), n, home)
		}
	}
}

// oneReleased waits until one of ps has ended, and requires the others
// still waiting a moment later: an answer released exactly one asking.
func oneReleased(t *testing.T, ps ...*bgAskuser) (ended *bgAskuser, waiting []*bgAskuser) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ended == nil; time.Sleep(10 * time.Millisecond) {
		for _, p := range ps {
			select {
			case <-p.done:
				ended = p
			default:
			}
		}
		if ended == nil && time.Now().After(deadline) {
			t.Fatal("no asking took the answer")
		}
	}
	time.Sleep(1500 * time.Millisecond) // the files store's waiters look ten times a second
	for _, p := range ps {
		if p == ended {
			continue
		}
		select {
		case <-p.done:
			t.Fatalf("one answer released two askings of one id; the second printed:\n%s\n%s", p.stdout, p.stderr)
		default:
			waiting = append(waiting, p)
		}
	}
	return ended, waiting
}

// answerAsked answers the set at path with the option index given.
func (ic *teamInbox) answerAsked(t *testing.T, path, option string) {
	t.Helper()
	if code, body := ic.formAt(t, path)(url.Values{"q0": {option}}); code != http.StatusOK {
		t.Fatalf("answer %s: status %d: %s", path, code, body)
	}
}

// twoAskers are the environments two runners ask in, and the inbox that
// shows both: on the files store one state directory, on the team store
// two machines and a third that serves.
func twoAskers(t *testing.T, team bool) (a, b []string, ic *teamInbox) {
	t.Helper()
	if !team {
		ms, _ := newTeam(t, "", "runner")
		env := slices.DeleteFunc(slices.Clone(ms[0].env), func(s string) bool { return s == "ASKUSER_STORE=" })
		return env, env, newTeamInbox(t, startBackground(t, env, "serve").url(t))
	}
	ms, _ := newTeam(t, pgtest.DB(t), "runner-1", "runner-2", "desk")
	return ms[0].env, ms[1].env, newTeamInbox(t, startBackground(t, ms[2].env, "serve").url(t))
}

func TestAskSameIDTwiceIsTwoQuestions(t *testing.T) {
	for _, team := range []bool{false, true} {
		name := map[bool]string{false: "files", true: "postgres"}[team]
		t.Run(name, func(t *testing.T) {
			envA, envB, ic := twoAskers(t, team)
			args := []string{"ask", "--frontend", "inbox", "--id", "deploy", "testdata/questions/database.json"}
			first := startBackground(t, envA, args...)
			second := startBackground(t, envB, args...)
			paths := ic.askedKeys(t, 2)

			ic.answerAsked(t, paths[0], "2") // SQLite
			ended, waiting := oneReleased(t, first, second)
			if code := ended.exit(t); code != 0 || !strings.Contains(ended.stdout.String(), "Selected: SQLite") {
				t.Fatalf("the asking answered: exit %d\n%s\n%s", code, ended.stdout, ended.stderr)
			}
			if _, page := ic.get(t, paths[1]); !strings.Contains(page, "waiting since") {
				t.Errorf("the other set's page, after the first was answered:\n%s", page)
			}
			ic.answerAsked(t, paths[1], "1") // MongoDB
			if code := waiting[0].exit(t); code != 0 || !strings.Contains(waiting[0].stdout.String(), "Selected: MongoDB") {
				t.Errorf("the second asking: exit %d\n%s\n%s", code, waiting[0].stdout, waiting[0].stderr)
			}
		})
	}
}

// Two hooks on two machines approve the same command under the same
// tool_use_id (two runners of one CI job): allowing one leaves the other
// waiting for its own answer.
func TestHookSameToolUseIDTwiceIsTwoApprovals(t *testing.T) {
	ms, _ := newTeam(t, pgtest.DB(t), "runner-1", "runner-2", "desk")
	ic := newTeamInbox(t, startBackground(t, ms[2].env, "serve").url(t))
	first := ms[0].preToolUse(t, "toolu_same", "make deploy")
	second := ms[1].preToolUse(t, "toolu_same", "make deploy")
	paths := ic.askedKeys(t, 2)
	ic.answerAsked(t, paths[0], "0") // Allow
	ended, waiting := oneReleased(t, first, second)
	if d := ended.decision(t).HookSpecificOutput; d.Decision != "allow" {
		t.Fatalf("the hook answered: %+v", d)
	}
	ic.answerAsked(t, paths[1], "1") // Deny
	if d := waiting[0].decision(t).HookSpecificOutput; d.Decision != "deny" {
		t.Errorf("the second hook: %+v", d)
	}
}

// Two askuser mcp servers on two machines get a call with the same
// Claude Code tool_use id: each is its own question.
func TestMCPSameToolUseIDTwiceIsTwoQuestions(t *testing.T) {
	ms, _ := newTeam(t, pgtest.DB(t), "runner-1", "runner-2", "desk")
	ic := newTeamInbox(t, startBackground(t, ms[2].env, "serve").url(t))
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"claudecode/toolUseId":"toolu_same"},` +
		`"name":"AskUserQuestion","arguments":{"questions":[{"question":"Which region?","header":"Region","multiSelect":false,` +
		`"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}}}`
	var servers []*mcpProc
	for _, m := range ms[:2] {
		s := startMCP(t, m.env, "--frontend", "inbox")
		s.send(t, call)
		servers = append(servers, s)
	}
	paths := ic.askedKeys(t, 2)
	ic.answerAsked(t, paths[0], "1")
	got := make(chan int, 2)
	for i, s := range servers {
		go func() {
			if reply, ok := s.replyWithin("2", 3*time.Second); ok && strings.Contains(reply, "us-east") {
				got <- i
				return
			}
			got <- -1
		}()
	}
	replied := 0
	for range servers {
		if <-got >= 0 {
			replied++
		}
	}
	if replied != 1 {
		t.Fatalf("one answer reached %d of the two calls, want 1", replied)
	}
}

// replyWithin returns the response to request id, if one comes within d.
func (p *mcpProc) replyWithin(id string, d time.Duration) (string, bool) {
	deadline := time.After(d)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return "", false
			}
			var msg struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal([]byte(l), &msg) == nil && string(msg.ID) == id {
				return l, true
			}
		case <-deadline:
			return "", false
		}
	}
}

// A session's set is waited on by one process at a time, on any machine:
// a second resume --wait of a session another machine's waits on is
// refused at once, naming why, so one answer never releases two runs.
func TestTeamStoreSecondWaiterOfASessionIsRefused(t *testing.T) {
	ms, script := newTeam(t, pgtest.DB(t), "runner-1", "runner-2")
	a, b := ms[0], ms[1]
	id := a.suspend(t, script)
	parked := startBackground(t, a.env, "resume", "--wait", id, "-p", "--output-format", "json")
	waitHeld(t, b, id)
	out, errOut, code := b.askuserIn(t, repoRoot(t), "resume", "--wait", id, "-p", "--output-format", "json")
	if code == 0 || !strings.Contains(errOut, "in use by another askuser process") {
		t.Errorf("a second resume --wait on another machine: exit %d\n%s\n%s", code, out, errOut)
	}
	select {
	case <-parked.done:
		t.Errorf("the first resume --wait ended: %s", parked.stderr)
	default:
	}
}
