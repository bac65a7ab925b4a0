package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

const hookAsk = `{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_1","tool_input":{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"R"},{"label":"SQLite","description":"E"}],"multiSelect":false}]}}`

func hookBash(cmd string) string {
	return `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_2","tool_input":{"command":"` + cmd + `"}}`
}

// runHookCmd runs askuser hook in process and decodes its decision.
func runHookCmd(t *testing.T, stdin string, args ...string) (code int, out map[string]any, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = cmdtest.Run(context.Background(), append([]string{"askuser", "hook"}, args...), strings.NewReader(stdin), &o, &e, cmdtest.Cmd(NewCmdHook))
	if code == cmdutil.ExitOK {
		var v struct {
			Out map[string]any `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(o.Bytes(), &v); err != nil || v.Out == nil {
			t.Fatalf("exit 0 with stdout %q: not a decision (%v)", o.String(), err)
		}
		out = v.Out
	} else if o.Len() != 0 {
		t.Errorf("exit %d with stdout %q; a blocking exit prints no decision", code, o.String())
	}
	return code, out, e.String()
}

func TestHookAnswersFileWithApprovals(t *testing.T) {
	f := cmdtest.WriteFile(t, "ci.yaml", cmdtest.RulesFile)
	_, out, _ := runHookCmd(t, hookAsk, "--answers", f)
	answers := out["updatedInput"].(map[string]any)["answers"].(map[string]any)
	if out["permissionDecision"] != "allow" || answers["Which database should we use?"] != "PostgreSQL (Recommended)" {
		t.Errorf("decision %v", out)
	}
	if !strings.Contains(out["additionalContext"].(string), "answers file ("+f+")") {
		t.Errorf("additionalContext %q does not name the answers file", out["additionalContext"])
	}
	// The probe's cases: README's own rule allows none of them.
	for cmd, want := range map[string]string{
		"git status": "allow", "rm -rf build": "deny", "touch x": "deny",
		"git status && rm -rf x": "deny", "git status | sh": "deny", "git status || touch x": "deny",
		"git status & touch x": "deny", "git status $(touch x)": "deny", "git status `touch x`": "deny",
		"git status > ~/.bashrc": "deny",
	} {
		_, out, _ := runHookCmd(t, hookBash(cmd), "--answers", f)
		if out["permissionDecision"] != want {
			t.Errorf("%s: decision %v, want %s", cmd, out, want)
		}
	}
	// Each decision is one sentence, naming who decided and what to do.
	for cmd, want := range map[string]string{
		"rm -rf build":               "Bash was not run: rule Bash(rm:*) (" + f + " line 5) denies it; do not retry it, and continue without it or ask the user to change the rule.",
		"git status && rm -rf build": "Bash was not run: rule Bash(rm:*) (" + f + " line 5) denies it; do not retry it, and continue without it or ask the user to change the rule.",
		"touch x":                    "Bash was not run: the answers file " + f + " has no approval rule that allows it; do not retry it, and continue without it (if the user wants such calls run without asking, they may add Bash(touch x:*) under approvals: allow: in " + f + "; do not change that file yourself).",
	} {
		_, out, _ := runHookCmd(t, hookBash(cmd), "--answers", f)
		if got := out["permissionDecisionReason"]; got != want {
			t.Errorf("%s: the model reads\n %q\nwant %q", cmd, got, want)
		}
	}
	_, out, _ = runHookCmd(t, hookBash("git status"), "--answers", f)
	if want := "Bash was allowed by rule Bash(git status:*) (" + f + " line 3), not by a person at the time."; out["additionalContext"] != want {
		t.Errorf("additionalContext %q, want %q", out["additionalContext"], want)
	}
}

// A broken answers file is reported where the host sees it, as a denial,
// never as a crash that would let the call run.
func TestHookBrokenAnswersFileDenies(t *testing.T) {
	for name, tc := range map[string]struct{ file, want string }{
		"bad label":    {strings.Replace(cmdtest.RulesFile, "PostgreSQL", "Postgres", 1), ":8:"},
		"bad rule":     {strings.Replace(cmdtest.RulesFile, "Bash(rm:*)", "mcp__*", 1), "mcp__*"},
		"unknown key":  {strings.Replace(cmdtest.RulesFile, "  allow:", "  allowed:", 1), "allowed"},
		"not yaml":     {"answers: [", "answers"},
		"missing file": {"", "does not exist; check the path"},
	} {
		t.Run(name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "missing.yaml")
			if tc.file != "" {
				f = cmdtest.WriteFile(t, "ci.yaml", tc.file)
			}
			code, out, _ := runHookCmd(t, hookAsk, "--answers", f)
			reason, _ := out["permissionDecisionReason"].(string)
			if code != cmdutil.ExitOK || out["permissionDecision"] != "deny" || !strings.Contains(reason, tc.want) {
				t.Errorf("exit %d, decision %v; want a denial saying %q", code, out, tc.want)
			}
		})
	}
}

func TestHookBlocksWhatItCannotRead(t *testing.T) {
	for name, tc := range map[string]struct {
		stdin string
		args  []string
		want  string
	}{
		"garbage":       {"{oops", []string{"--frontend", "auto"}, "not a JSON object"},
		"stdio":         {hookAsk, []string{"--frontend", "stdio"}, "standard input carries"},
		"elicit":        {hookAsk, []string{"--frontend", "elicit"}, "not a frontend here"},
		"bad flag":      {hookAsk, []string{"--no-such-flag"}, "no-such-flag"},
		"zero timeout":  {hookAsk, []string{"--timeout", "0s"}, "--timeout"},
		"argument":      {hookAsk, []string{"extra"}, "no arguments"},
		"unknown event": {`{"hook_event_name":"Stop"}`, []string{"--frontend", "auto"}, "Stop"},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := runHookCmd(t, tc.stdin, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 (blocking) saying %q", code, stderr, tc.want)
			}
		})
	}
}

func TestHookPolicyNeverApproves(t *testing.T) {
	_, out, _ := runHookCmd(t, hookBash("touch x"), "--frontend", "auto")
	if out["permissionDecision"] != "deny" || !strings.Contains(out["permissionDecisionReason"].(string), "no person approved") {
		t.Errorf("decision %v", out)
	}
}

// A path rule's /path is the answers file's folder; other paths are read
// against the event's cwd, and .. that leaves the folder is not allowed.
func TestHookPathRulesFromAnswersFile(t *testing.T) {
	f := cmdtest.WriteFile(t, "ci.yaml", "approvals:\n  allow: [\"Edit(/docs/**)\"]\nunanswered: error\n")
	dir := filepath.Dir(f)
	event := func(cwd, path string) string {
		return `{"hook_event_name":"PreToolUse","cwd":"` + cwd + `","tool_name":"Write","tool_use_id":"toolu_3","tool_input":{"file_path":"` + path + `","content":"x"}}`
	}
	for _, tc := range []struct{ cwd, path, want string }{
		{"/elsewhere", dir + "/docs/a.md", "allow"},
		{dir, "docs/a.md", "allow"},
		{"/elsewhere", "docs/a.md", "deny"},
		{dir, "docs/../ci.yaml", "deny"},
	} {
		_, out, _ := runHookCmd(t, event(tc.cwd, tc.path), "--answers", f)
		if out["permissionDecision"] != tc.want {
			t.Errorf("cwd %s, path %s: decision %v, want %s", tc.cwd, tc.path, out, tc.want)
		}
	}
}
