package hook

import (
	"encoding/json"
	"testing"
)

func TestDeferAndDeny(t *testing.T) {
	for _, c := range []struct {
		reply    Reply
		decision string
		reason   string
	}{
		{Defer("waiting for a person"), "defer", "waiting for a person"},
		{Deny(`only one call can wait; "end your turn"`), "deny", `only one call can wait; "end your turn"`},
	} {
		var out struct {
			HookSpecificOutput map[string]string `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(c.reply.Stdout, &out); err != nil || c.reply.Exit != 0 {
			t.Fatalf("%s: exit %d, stdout %q: %v", c.decision, c.reply.Exit, c.reply.Stdout, err)
		}
		got := out.HookSpecificOutput
		if got["hookEventName"] != "PreToolUse" || got["permissionDecision"] != c.decision || got["permissionDecisionReason"] != c.reason {
			t.Errorf("%s: got %v", c.decision, got)
		}
	}
}
