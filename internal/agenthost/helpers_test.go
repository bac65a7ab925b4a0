package agenthost

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// dbInput is the question every test asks.
const dbInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

// personSQLite is a person's answer to dbInput, given in Slack.
var personSQLite = []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"},
	Source: ask.SourcePerson, Via: ask.ViaOn("@alice", "Slack")}}

// hostTimeout bounds one run of a real host.
const hostTimeout = 2 * time.Minute

// runHost runs cmd to its end (killing it after hostTimeout) and returns
// how it ended. stdin, when cmd has none, is empty.
func runHost(t *testing.T, what string, cmd *exec.Cmd) Result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	timer := time.AfterFunc(hostTimeout, func() { _ = cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	r := Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v\nstderr: %s", what, err, &stderr)
	}
	return r
}

// toolResult returns the content of the tool result id the fake received.
func toolResult(t *testing.T, srv *fakeprovider.Server, id string) (fakeprovider.ToolResultSeen, bool) {
	t.Helper()
	for _, r := range srv.ToolResults() {
		if r.ToolUseID == id {
			return r, true
		}
	}
	return fakeprovider.ToolResultSeen{}, false
}

// lastUserText is the text of the last user message of the last request.
func lastUserText(srv *fakeprovider.Server) string {
	reqs := srv.Requests()
	if len(reqs) == 0 {
		return ""
	}
	req := reqs[len(reqs)-1]
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if text, ok := userText(req.Messages[i]); ok {
			return text
		}
	}
	return ""
}

// writeAnswer puts the hook's answer to call id in the stand-in's mailbox.
func writeAnswer(t *testing.T, dir, id, decision string) {
	t.Helper()
	path := filepath.Join(dir, "answers", id+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(decision), 0o600); err != nil {
		t.Fatal(err)
	}
}

// allowWith is the hook's allow with updatedInput.
func allowWith(updated string) string {
	return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + updated + `}}`
}

// dbAnswered is dbInput with the answer SQLite.
var dbAnswered = strings.Replace(dbInput, `"multiSelect":false}]}`, `"multiSelect":false}],"answers":{"Which database should we use?":"SQLite"}}`, 1)

// userText is the text of a user message in any of the fakes' wire
// formats (Anthropic, Chat Completions, Responses, Gemini), or false.
func userText(raw []byte) (string, bool) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Parts   []struct {
			Text string `json:"text"`
		} `json:"parts"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Role != "user" {
		return "", false
	}
	var texts []string
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		texts = append(texts, s)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &blocks) == nil {
		for _, b := range blocks {
			if b.Type == "text" || b.Type == "input_text" {
				texts = append(texts, b.Text)
			}
		}
	}
	for _, p := range m.Parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	if len(texts) == 0 {
		return "", false
	}
	return strings.Join(texts, "\n"), true
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
