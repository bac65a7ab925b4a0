package session

// Replaying holds call records back and drops those a user message
// settles (replay.go). These tests check that this gives exactly what
// decoding and applying every record in order gives (applyEvery, the
// replay as it was before), for every prefix of a journal with sub-agents,
// partial answers, steps, a cancel and a pending question, cut at every
// byte; and that a damaged call record is reported even when it is
// dropped.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// richID is the id of richJournal's session; its journal is loaded under
// that name (richID.jsonl), as every journal must be.
const richID = "7e57ab1e-0000-4000-8000-000000000001"

// applyEvery replays buf by decoding and applying every line in order.
func applyEvery(path string, buf []byte) (*Session, int, error) {
	s := &Session{State: agentloop.NewState(), where: path, readAs: richID, size: int64(len(buf))}
	good, line, off := -1, 0, 0
	for off < len(buf) {
		line++
		end := bytes.IndexByte(buf[off:], '\n')
		last := end < 0
		if last {
			end = len(buf) - off
		}
		raw := buf[off : off+end]
		r, err := decodeRecord(raw, last)
		if err != nil {
			if last || isTail(buf[off+end:]) {
				good = off
				s.Recovered = fmt.Sprintf("dropped a torn last line (line %d, %d bytes), left by a process killed while writing", line, len(raw))
				break
			}
			return nil, -1, &CorruptError{Path: path, Line: line, Intact: line - 1, Reason: shortErr(err)}
		}
		if err := s.apply(r, line); err != nil {
			return nil, -1, &CorruptError{Path: path, Line: line, Intact: line - 1, Reason: err.Error()}
		}
		off += end + 1
	}
	return s, good, nil
}

func twoQuestions(id string) ask.Request {
	q := func(header string) ask.Question {
		return ask.Question{Question: header + "?", Header: header, Options: []ask.Option{{Label: "A"}, {Label: "B"}}}
	}
	return ask.Request{ID: id, Questions: []ask.Question{q("First"), q("Second")}}
}

func toolUse(id, name string) agentloop.Block {
	return agentloop.Block{Type: agentloop.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(`{}`)}
}

func toolResult(id string) agentloop.Block {
	return agentloop.Block{Type: agentloop.BlockToolResult, ToolUseID: id, Content: "result of " + id}
}

// richJournal writes a session that settles calls of its own and of a
// sub-agent, records steps and session values, is cancelled and goes on,
// and stops on a question answered in part.
func richJournal(t *testing.T) []byte {
	t.Helper()
	at := time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)
	st := &Store{Dir: t.TempDir(), Now: func() time.Time { at = at.Add(time.Second); return at }}
	s, err := st.Create(Meta{ID: richID, FirstPrompt: "plan"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	user := func(blocks ...agentloop.Block) agentloop.Message {
		return agentloop.Message{Role: agentloop.RoleUser, Content: blocks}
	}
	assistant := func(blocks ...agentloop.Block) agentloop.Message {
		return agentloop.Message{Role: agentloop.RoleAssistant, Content: blocks}
	}
	some := []ask.Answer{{Question: "First?", Header: "First", Selected: []string{"A"}, Source: ask.SourcePerson}}
	child := s.Child("toolu_task").(*journalAt)
	grandchild := child.Child("call_task")
	for _, err := range []error{
		s.Message(user(agentloop.Block{Type: agentloop.BlockText, Text: "plan"})),
		s.Message(assistant(toolUse("toolu_a", ask.ToolName), toolUse("toolu_task", "Task"))),
		s.Asked(twoQuestions("toolu_a"), "toolu_a", at),
		s.Partial("toolu_a", some, []int{0}),
		child.Message(user(agentloop.Block{Type: agentloop.BlockText, Text: "research"})),
		child.Message(assistant(toolUse("call_0", ask.ToolName), toolUse("call_task", "Task"))),
		child.Asked(twoQuestions("call_0"), "call_0", at),
		child.Replied("call_0", append(some, some...)),
		child.Answered("call_0", toolResult("call_0"), nil),
		grandchild.Message(user(agentloop.Block{Type: agentloop.BlockText, Text: "deeper"})),
		grandchild.Step("", "shared", json.RawMessage(`"kept"`)),
		child.Answered("call_task", toolResult("call_task"), nil),
		child.Message(user(toolResult("call_0"), toolResult("call_task"))),
		child.Step("call_9", "k", json.RawMessage(`1`)),
		s.Step("toolu_task", "started", json.RawMessage(`true`)),
		s.Replied("toolu_a", append(some, some...)),
		s.Answered("toolu_a", toolResult("toolu_a"), nil),
		s.Answered("toolu_task", toolResult("toolu_task"), nil),
		s.Message(user(toolResult("toolu_a"), toolResult("toolu_task"))),
		s.Message(assistant(toolUse("toolu_b", ask.ToolName))),
		s.Asked(twoQuestions("toolu_b"), "toolu_b", at),
		s.SetStatus(string(agentloop.StatusWaiting), "", 2, agentloop.Usage{}),
		func() error { _, err := s.Cancel("not now"); return err }(),
		s.Partial("toolu_b", some, []int{0}),
		s.SetStatus(string(agentloop.StatusWaiting), "", 2, agentloop.Usage{}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sameReplay checks that load and applyEvery agree on buf.
func sameReplay(t *testing.T, buf []byte, what string) bool {
	t.Helper()
	path := richID + ".jsonl"
	got, gotGood, gotErr := load(path, richID, buf)
	want, wantGood, wantErr := applyEvery(path, buf)
	if wantErr == nil && want.Meta.ID == "" {
		return true // load refuses a journal without its header; applyEvery has no opinion
	}
	var gotCorrupt, wantCorrupt *CorruptError
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Errorf("%s: load says %v, decoding every record says %v", what, gotErr, wantErr)
	case gotErr != nil:
		if !errors.As(gotErr, &gotCorrupt) || !errors.As(wantErr, &wantCorrupt) || *gotCorrupt != *wantCorrupt {
			t.Errorf("%s: load says %v, decoding every record says %v", what, gotErr, wantErr)
		}
	case gotGood != wantGood || got.Recovered != want.Recovered:
		t.Errorf("%s: load keeps %d bytes (%q), decoding every record %d (%q)", what, gotGood, got.Recovered, wantGood, want.Recovered)
	case !reflect.DeepEqual(got, want):
		t.Errorf("%s: load gives\n%+v\nwith state %+v\ndecoding every record gives\n%+v\nwith state %+v", what, got, got.State, want, want.State)
	default:
		return true
	}
	return false
}

func TestReplayEqualsDecodingEveryRecord(t *testing.T) {
	data := richJournal(t)
	if n := bytes.Count(data, []byte(`{"type":"asked",`)); n != 3 {
		t.Fatalf("the journal has %d asked records, want 3: the test no longer covers what it meant to", n)
	}
	for off := 0; off <= len(data); off++ {
		if !sameReplay(t, data[:off], fmt.Sprintf("cut at byte %d of %d", off, len(data))) {
			return
		}
	}
	whole, _, err := applyEvery(richID+".jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	if whole.State.Session == nil || len(whole.State.PendingQuestions()) != 1 {
		t.Errorf("the whole journal replays to %+v: want one question pending", whole.State)
	}
	if v, ok := whole.State.Session.Get("shared"); !ok || string(v) != `"kept"` {
		t.Errorf("the session value a settled sub-agent set is %q, %v: want it kept", v, ok)
	}
}

// TestDamagedSettledCallRecord: a call record that a later user message
// settles is never decoded (the session's replied record of toolu_a comes
// after its last step record, and a user message follows), but a damaged
// one is still reported, at its line.
func TestDamagedSettledCallRecord(t *testing.T) {
	data := richJournal(t)
	lines := strings.SplitAfter(string(data), "\n")
	damaged := -1
	for i, l := range lines {
		if strings.HasPrefix(l, `{"type":"replied",`) && strings.Contains(l, `"request_id":"toolu_a"`) {
			damaged = i
			lines[i] = `{"type":"replied","at":` + "\n" // cut short, with records after it
			break
		}
	}
	if damaged < 0 {
		t.Fatal("no replied record for toolu_a in the journal")
	}
	buf := []byte(strings.Join(lines, ""))
	if !sameReplay(t, buf, "a damaged replied record") {
		return
	}
	_, _, err := load(richID+".jsonl", richID, buf)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Line != damaged+1 || !strings.Contains(ce.Reason, "unexpected end of JSON input") {
		t.Errorf("load says %v, want line %d damaged (unexpected end of JSON input)", err, damaged+1)
	}
	// Damaged and followed by blank space only: the torn last line.
	lines = strings.SplitAfter(string(data), "\n")
	tail := `{"type":"answered","at":` + "\n\n"
	if !sameReplay(t, []byte(strings.Join(lines[:len(lines)-1], "")+tail), "a torn answered record before a blank line") {
		return
	}
}
