package mcp

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask/asktest"
)

// wire drives the server with raw JSON-RPC lines, as Claude Code does.
type wire struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func startWire(t *testing.T, cfg ServeConfig) *wire {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- NewServer(cfg).Run(t.Context(), inR, outW) }()
	t.Cleanup(func() {
		// stdin ends: the server must stop, once it has written the
		// replies it owes (read here, so they do not block it).
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		inW.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop when its input ended")
		}
		outR.Close()
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &wire{t: t, in: inW, out: sc}
}

func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

// replyLimit bounds the wait for a reply: it only catches a server that
// never answers, so it is long against a loaded machine's scheduling.
const replyLimit = 5 * time.Second

// reply reads lines until the response to id, within replyLimit.
func (w *wire) reply(id string) map[string]json.RawMessage {
	w.t.Helper()
	got := make(chan map[string]json.RawMessage, 1)
	go func() {
		for w.out.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(w.out.Bytes(), &m) == nil && string(m["id"]) == id {
				got <- m
				return
			}
		}
		close(got)
	}()
	select {
	case m, ok := <-got:
		if !ok {
			w.t.Fatalf("no reply to %s: output ended", id)
		}
		return m
	case <-time.After(replyLimit):
		w.t.Fatalf("no reply to %s within %s", id, replyLimit)
	}
	return nil
}

// TestDiscoverAndUnknownRequestsFailFast: Claude Code 2.1.330 sends
// server/discover before initialize and waits up to 30 s for a server
// that does not answer; -32601 at once costs nothing.
func TestDiscoverAndUnknownRequestsFailFast(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("SQLite")
	w := startWire(t, ServeConfig{Ask: frontendAsker(fe), Version: "1.2.3"})
	w.send(`{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.330"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"elicitation":{"form":{},"url":{}}}}}}`)
	if e := string(w.reply(`"server-discover-probe-1"`)["error"]); !strings.Contains(e, "-32601") {
		t.Errorf("server/discover got %s, want error -32601", e)
	}
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{},"elicitation":{}},"clientInfo":{"name":"claude-code","version":"2.1.197"}}}`)
	init := w.reply("1")
	if !strings.Contains(string(init["result"]), `"1.2.3"`) {
		t.Fatalf("initialize got %s", init["result"])
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"no/such/method","params":{}}`)
	if e := string(w.reply("2")["error"]); !strings.Contains(e, "-32601") {
		t.Errorf("an unknown method got %s, want error -32601", e)
	}
	w.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + dbInput + `,"_meta":{"claudecode/toolUseId":"toolu_w","progressToken":3}}}`)
	res := w.reply("3")["result"]
	var r map[string]json.RawMessage
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if _, ok := r["structuredContent"]; ok {
		t.Errorf("result %s has structuredContent; Claude Code would drop the text", res)
	}
	if !strings.Contains(string(r["content"]), `"type":"text"`) || !strings.Contains(string(r["content"]), "Selected: SQLite") {
		t.Errorf("result content %s, want the standard text", r["content"])
	}
	if strings.Contains(string(r["isError"]), "true") {
		t.Errorf("an answered set is an error: %s", res)
	}
	if fe.Asked()[0].ID != "toolu_w" || len(fe.Asked()[0].Questions) != 1 || fe.Asked()[0].Questions[0].Header != "Database" {
		t.Errorf("asked %+v", fe.Asked())
	}
}

// TestInputEndWithdrawsWaitingQuestions: when the host goes away (its end
// of standard input closes), a question still on the person's screen is
// withdrawn and the server stops.
func TestInputEndWithdrawsWaitingQuestions(t *testing.T) {
	asked, ended := make(chan struct{}), make(chan error, 1)
	w := startWire(t, ServeConfig{Ask: blockingAsker(asked, ended)})
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	w.reply("1")
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + dbInput + `}}`)
	waitAsked(t, asked)
	w.in.Close()
	select {
	case err := <-ended:
		if err == nil {
			t.Error("the question ended without an error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the question stayed open after the host went away")
	}
}
