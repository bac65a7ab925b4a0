package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// idHost is the host session of the cases.
const idHost = session.ID("4057a000-0000-4000-8000-000000000001")

var hostCases = []Case{
	{"a host session's call, answer and host records read back alike", func(t *testing.T, procs Procs) {
		st := procs()
		s, err := st.Create(session.Meta{ID: idHost, Host: "claude", Cwd: "/src/app", Machine: "build-7", FirstPrompt: "pick a db"})
		if err != nil {
			t.Fatal(err)
		}
		req := ask.Request{ID: "toolu_db", Questions: []ask.Question{{Question: "Which database?", Header: "Database",
			Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}}}
		at := T0.Add(time.Minute)
		call := agentloop.Block{ID: "toolu_db", Name: "AskUserQuestion", Input: json.RawMessage(`{"questions":[]}`)}
		steps := []error{
			s.SetHost(session.HostRecord{State: session.HostRunning, ID: "c1a0de00-0000-4000-8000-000000000001"}),
			s.HostCall(call, req, at),
			s.SetHost(session.HostRecord{State: session.HostWaiting, Call: "toolu_db", Session: json.RawMessage(`{"host":"claude"}`)}),
		}
		if err := errors.Join(steps...); err != nil {
			t.Fatal(err)
		}
		s.Close()
		got, err := procs().Load(string(idHost))
		if err != nil {
			t.Fatal(err)
		}
		sum := got.Summary()
		if !got.IsHost() || sum.Host != "claude" || sum.HostID != "c1a0de00-0000-4000-8000-000000000001" || sum.HostState != session.HostWaiting ||
			sum.Status != session.StatusWaiting || len(sum.Questions) != 1 || !sum.Questions[0].AskedAt.Equal(at) {
			t.Fatalf("summary %+v", sum)
		}
		if c, r, a := got.HostPending(); c == nil || c.ID != "toolu_db" || r == nil || r.ID != "toolu_db" || a != nil {
			t.Fatalf("pending %v %v %v", c, r, a)
		}
		if !bytes.Equal(got.Host.Session, []byte(`{"host":"claude"}`)) {
			t.Errorf("host session %s", got.Host.Session)
		}
		if v := versionOf(t, rawJournal(t, st, idHost)); v != session.HostFormat {
			t.Errorf("a host session's journal is format %d, want %d", v, session.HostFormat)
		}
	}},
	{"a host transcript is kept by a team store, and by no other", func(t *testing.T, procs Procs) {
		st := procs()
		s := newSession(t, st, idHost, "pick a db")
		s.Close()
		if err := st.PutHostTranscript(idGone, []byte("x")); st.KeepsHostTranscripts() && !errors.Is(err, session.ErrNotFound) {
			t.Errorf("a transcript of a session not stored: %v", err)
		}
		for _, data := range [][]byte{[]byte("first"), []byte("second, longer")} {
			if err := st.PutHostTranscript(idHost, data); err != nil {
				t.Fatal(err)
			}
			got, ok, err := procs().HostTranscript(idHost)
			if err != nil || ok != st.KeepsHostTranscripts() || (ok && !bytes.Equal(got, data)) {
				t.Fatalf("read back %q, %v, %v; kept: %v", got, ok, err, st.KeepsHostTranscripts())
			}
		}
		if err := st.PutHostTranscript(idHost, make([]byte, session.MaxHostTranscriptBytes+1)); st.KeepsHostTranscripts() && !errors.Is(err, session.ErrTranscriptTooLarge) {
			t.Errorf("a transcript past the bound: %v", err)
		}
		if _, err := st.Remove(string(idHost)); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := st.HostTranscript(idHost); ok || err != nil {
			t.Errorf("the transcript outlived its session: %v, %v", ok, err)
		}
	}},
}

// versionOf is the format of a journal's header.
func versionOf(t *testing.T, journal []byte) int {
	t.Helper()
	line, _, _ := bytes.Cut(journal, []byte("\n"))
	var h struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(line, &h); err != nil {
		t.Fatal(err)
	}
	return h.Version
}
