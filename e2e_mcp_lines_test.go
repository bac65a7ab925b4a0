// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMCPMalformedLines: askuser mcp answers each line it cannot take
// with a JSON-RPC error and goes on; it used to exit at the first one,
// dropping the calls under way. A call is left waiting on a web card, the
// lines below are sent, and then the card is answered: every bad line got
// its error (-32700 for what is not JSON, -32600 for JSON that is not a
// JSON-RPC 2.0 message, with its id when it has one), a response that is
// not valid is dropped unanswered, a ping after them all is answered, and
// the waiting call still gets the person's answer.
func TestMCPMalformedLines(t *testing.T) {
	t.Parallel()
	p := startMCPPipes(t, "--frontend", "web")
	stdin, stdout, stderr := p.stdin, p.stdout, p.stderr
	replies := make(chan map[string]json.RawMessage, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				t.Errorf("askuser mcp wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			replies <- m
		}
		close(replies)
	}()
	send := func(lines ...string) {
		t.Helper()
		for _, line := range lines {
			if _, err := io.WriteString(stdin, line+"\n"); err != nil {
				t.Fatalf("writing %q: %v\nstderr: %s", line, err, stderr)
			}
		}
	}
	next := func() map[string]json.RawMessage {
		t.Helper()
		select {
		case m, ok := <-replies:
			if !ok {
				t.Fatalf("askuser mcp's output ended\nstderr: %s", stderr)
			}
			return m
		case <-time.After(waitLimit):
			t.Fatalf("no reply\nstderr: %s", stderr)
		}
		return nil
	}
	pretty, _ := os.ReadFile(filepath.Join(repoRoot(t), "testdata/questions/auth.json"))
	var questions bytes.Buffer
	if err := json.Compact(&questions, pretty); err != nil {
		t.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if m := next(); string(m["id"]) != "1" || m["result"] == nil {
		t.Fatalf("initialize: %s", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + questions.String() + `}}`)
	var pageURL string
	for deadline := time.Now().Add(waitLimit); pageURL == ""; time.Sleep(10 * time.Millisecond) {
		if pageURL = urlPattern.FindString(stderr.String()); pageURL == "" && time.Now().After(deadline) {
			t.Fatalf("no URL on stderr: %s", stderr)
		}
	}
	bad := []struct {
		line, id string
		code     int
		says     string
	}{
		{"hello", "null", -32700, "Parse error: line 4 is not JSON (invalid character 'h' looking for beginning of value)"},
		{"42", "null", -32600, "Invalid Request: line 5 is 42, not a JSON-RPC 2.0 message"},
		{`"ask me"`, "null", -32600, `Invalid Request: line 6 is "ask me", not a JSON-RPC 2.0 message`},
		{`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, "null", -32600, "Invalid Request: line 7 is a batch"},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, "7", -32600, `Invalid Request: line 8: "jsonrpc" is "1.0", not "2.0"`},
		{`{"jsonrpc":"2.0","id":"eight"}`, `"eight"`, -32600, `Invalid Request: line 9: it has no "method" (a request) and no "result" or "error" (a response)`},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, "null", -32600, `Invalid Request: line 10: "id" is {"x":1}; give a string or a number`},
		{`{"jsonrpc":"2.0","id":11,"method":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`, "11", -32600, `Invalid Request: line 11: "method" is [[[[`},
		{`{"jsonrpc":"1.0","id":5,"result":{}}`, "", 0, ""}, // an invalid response: dropped
		{`{"jsonrpc":"2.0","id":3,"method":"ping"}`, "3", 0, ""},
	}
	for _, b := range bad {
		send(b.line)
	}
	for _, b := range bad {
		if b.id == "" {
			continue
		}
		m := next()
		var e struct {
			Code    int
			Message string
		}
		_ = json.Unmarshal(m["error"], &e)
		if string(m["id"]) != b.id || e.Code != b.code || !strings.HasPrefix(e.Message, b.says) || (b.code == 0) != (m["result"] != nil) {
			t.Errorf("after %.50q: reply %s, want id %s, code %d, a message beginning %q", b.line, m, b.id, b.code, b.says)
		}
	}
	// stderr is copied from its pipe apart from stdout: the log line may
	// arrive after the reply to the line that followed it.
	for deadline := time.Now().Add(waitLimit); !strings.Contains(stderr.String(), "dropped line 12 of standard input, a response that is not valid"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("the invalid response was not logged: %s", stderr)
			break
		}
	}
	webAnswer(t, pageURL, url.Values{"q0": {"1"}, "q1": {"0", "1"}})
	m := next()
	var res struct {
		Content []struct{ Text string }
	}
	_ = json.Unmarshal(m["result"], &res)
	if string(m["id"]) != "2" || len(res.Content) == 0 || res.Content[0].Text != strings.TrimSuffix(wantAuthJWT, "\n") {
		t.Errorf("the waiting call's result: %s, want\n%s", m, wantAuthJWT)
	}
	stdin.Close()
	select {
	case <-p.done:
	case <-time.After(waitLimit):
		t.Fatalf("askuser mcp did not exit when its input ended\nstderr: %s", stderr)
	}
	if p.err != nil {
		t.Errorf("askuser mcp: %v\nstderr: %s", p.err, stderr)
	}
}

// mcpPipes is askuser mcp with its standard input and output held by the
// test.
type mcpPipes struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Reader
	stderr *syncBuffer
	done   chan struct{}
	err    error
}

// startMCPPipes starts askuser mcp args... in a session of its own (no
// controlling terminal) with a fresh state directory; it is killed at the
// end of the test if still running.
func startMCPPipes(t *testing.T, args ...string) *mcpPipes {
	t.Helper()
	p := &mcpPipes{cmd: exec.Command(askuserBin(), append([]string{"mcp"}, args...)...), stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "ASKUSER_STATE_DIR="+t.TempDir())
	p.stdin, _ = p.cmd.StdinPipe()
	p.stdout, _ = p.cmd.StdoutPipe()
	p.cmd.Stderr = p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reap(p.cmd, &p.err, p.done))
	return p
}
