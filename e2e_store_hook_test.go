// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// askuser hook with the team store (e2e_store_test.go has the rig): a
// Claude Code PreToolUse hook on one machine waits on an approval that a
// person gives on another machine's askuser serve.

// hookDecision is what askuser hook prints for a PreToolUse event.
type hookDecision struct {
	HookSpecificOutput struct {
		HookEventName string         `json:"hookEventName"`
		Decision      string         `json:"permissionDecision"`
		Reason        string         `json:"permissionDecisionReason"`
		UpdatedInput  map[string]any `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// preToolUse starts askuser hook on m, through the inbox, for a
// PreToolUse event asking to run command with Bash.
func (m teamMachine) preToolUse(t *testing.T, id, command string) *bgAskuser {
	t.Helper()
	ev, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "claude-" + id, "cwd": repoRoot(t),
		"tool_name": "Bash", "tool_use_id": id, "tool_input": map[string]any{"command": command}})
	if err != nil {
		t.Fatal(err)
	}
	return startBackgroundStdin(t, m.env, strings.NewReader(string(ev)), "hook", "--frontend", "inbox")
}

// decision waits for the hook to end and returns what it decided.
func (p *bgAskuser) decision(t *testing.T) hookDecision {
	t.Helper()
	if code := p.exit(t); code != 0 {
		t.Fatalf("the hook: exit %d\n%s\n%s", code, p.stdout, p.stderr)
	}
	var d hookDecision
	if err := json.Unmarshal([]byte(p.stdout.String()), &d); err != nil {
		t.Fatalf("the hook's decision is not JSON: %v\n%s", err, p.stdout)
	}
	return d
}

var askedSet = regexp.MustCompile(`href="/q/([a-z2-7]+)"`)

// askedOutside waits for the inbox's first page to list a set asked
// outside a session whose page shows want, and returns that page's path.
func (ic *teamInbox) askedOutside(t *testing.T, want string) string {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		_, home := ic.get(t, "")
		for _, m := range askedSet.FindAllStringSubmatch(home, -1) {
			if _, page := ic.get(t, "q/"+m[1]); strings.Contains(page, want) {
				return "q/" + m[1]
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox never listed a set showing %q:\n%s", want, home)
		}
	}
}

// A PreToolUse hook on machine A asks to approve a command through the
// inbox of the team store. askuser serve on machine B lists it, a person
// allows it there, and the hook tells Claude Code to run the command as
// it was. A second approval is denied on B with instructions, which the
// hook gives Claude Code as the reason.
func TestTeamStoreHookApprovalAnsweredOnAnotherMachine(t *testing.T) {
	ms, _ := newTeam(t, pgtest.DB(t), "machine-a", "machine-b")
	a, b := ms[0], ms[1]
	ic := newTeamInbox(t, startBackground(t, b.env, "serve").url(t))

	hook := a.preToolUse(t, "toolu_deploy", "make deploy")
	page := ic.askedOutside(t, "make deploy")
	if code, body := ic.formAt(t, page)(url.Values{"q0": {"0"}}); code != http.StatusOK { // Allow
		t.Fatalf("allow on B: status %d: %s", code, body)
	}
	d := hook.decision(t).HookSpecificOutput
	if d.HookEventName != "PreToolUse" || d.Decision != "allow" || d.UpdatedInput["command"] != "make deploy" {
		t.Errorf("the hook's decision: %+v\n%s", d, hook.stdout)
	}

	hook = a.preToolUse(t, "toolu_clean", "rm -rf build")
	page = ic.askedOutside(t, "rm -rf build")
	const instead = "use make clean instead"
	if code, body := ic.formAt(t, page)(url.Values{"q0": {"other"}, "q0.other": {instead}}); code != http.StatusOK {
		t.Fatalf("deny on B: status %d: %s", code, body)
	}
	d = hook.decision(t).HookSpecificOutput
	if d.Decision != "deny" || d.Reason != "Bash was not run, and the user said instead: "+instead {
		t.Errorf("the hook's decision: %+v\n%s", d, hook.stdout)
	}
}
