package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
)

// runPiped serves in, whole, to a server and returns the lines it wrote
// before it stopped, within replyLimit.
func runPiped(t *testing.T, cfg ServeConfig, in string) []map[string]json.RawMessage {
	t.Helper()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- NewServer(cfg).Run(t.Context(), io.NopCloser(strings.NewReader(in)), outW)
		outW.Close()
	}()
	var lines []map[string]json.RawMessage
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				lines = append(lines, m)
			}
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(replyLimit):
		t.Fatal("the server did not stop after its input ended")
	}
	<-read
	return lines
}

// repliedTo are the ids of the responses among lines.
func repliedTo(lines []map[string]json.RawMessage) []string {
	var ids []string
	for _, m := range lines {
		if _, isReq := m["method"]; !isReq && m["id"] != nil {
			ids = append(ids, string(m["id"]))
		}
	}
	slices.Sort(ids)
	return ids
}

const (
	initLine       = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ci","version":"1"}}}`
	initializedMsg = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// TestInputEndAnswersEveryRequestRead: initialize, initialized, tools/list
// and a call answered at once, piped in and closed, get every reply, run
// after run (the SDK dropped the replies it had not written when the
// input ended: both came in 1 run of 10).
func TestInputEndAnswersEveryRequestRead(t *testing.T) {
	in := initLine + "\n" + initializedMsg + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + dbInput + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n"
	for run := range 40 {
		fe := asktest.New(t)
		fe.Expect("Database").Choose("SQLite")
		lines := runPiped(t, ServeConfig{Ask: frontendAsker(fe), Instant: true}, in)
		if got := repliedTo(lines); strings.Join(got, ",") != "1,2,3,4" {
			t.Fatalf("run %d: replies to %v, want 1, 2, 3 and 4", run, got)
		}
	}
}

// TestInputEndAnswersTheHostsForm: a call waiting on the host's own form
// when the host's input ends can get no answer from it: askuser answers
// its own request on the host's behalf, and the call's reply says the
// question went unanswered.
func TestInputEndAnswersTheHostsForm(t *testing.T) {
	w := startWire(t, ServeConfig{Ask: hostAsker, Instant: true})
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}`)
	w.reply("1")
	w.send(initializedMsg)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + dbInput + `}}`)
	for {
		var m map[string]json.RawMessage
		if w.out.Scan() && json.Unmarshal(w.out.Bytes(), &m) == nil && string(m["method"]) == `"elicitation/create"` {
			break
		}
	}
	w.in.Close()
	res := w.reply("2")["result"]
	if !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), "closed askuser mcp's standard input") {
		t.Errorf("the call's reply: %s", res)
	}
}

// TestInputEndWithdrawsAndAnswersWaitingQuestions: a question on the
// person's screen when the host goes away is withdrawn, and its call
// still gets its reply, saying so.
func TestInputEndWithdrawsAndAnswersWaitingQuestions(t *testing.T) {
	asked, ended := make(chan struct{}), make(chan error, 1)
	w := startWire(t, ServeConfig{Ask: blockingAsker(asked, ended)})
	w.send(initLine)
	w.reply("1")
	w.send(initializedMsg)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + dbInput + `}}`)
	waitAsked(t, asked)
	w.in.Close()
	res := w.reply("2")["result"]
	if !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), "went away") {
		t.Errorf("the call's reply: %s", res)
	}
}

// TestInputEndAfterACancelledCall: a call the host cancelled gets no
// reply, and the server does not wait for one when the input ends.
func TestInputEndAfterACancelledCall(t *testing.T) {
	asked := make(chan struct{})
	w := startWire(t, ServeConfig{Ask: func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
		close(asked)
		<-ctx.Done()
		return nil, ask.CtxErr(ctx)
	}, Instant: true})
	w.send(initLine)
	w.reply("1")
	w.send(initializedMsg)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + dbInput + `}}`)
	waitAsked(t, asked)
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user pressed Esc"}}`)
	// startWire's cleanup closes the input and requires the server to stop.
}
