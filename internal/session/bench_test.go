package session

// What resuming a long session costs: opening (reading, replaying and
// locking) a 1,000-turn journal and answering its pending question, against
// merely reading and decoding the same file, and against reading it alone.
// Run them in one go:
//
//	go test -run '^$' -bench 'SessionLoad' ./internal/session/
//
// What grows with the session is reading the file and decoding its
// messages, which the model is sent again on every turn; the call records
// a later message settles are only checked (replay.go). What does not is
// answering the question and the journal's synced writes, about 3 ms on a
// disk (4 fdatasyncs), nothing on tmpfs.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
)

const benchTurns = 1000

// benchID is the long session's id.
const benchID ID = "10000000-0000-4000-8000-000000000000"

const benchInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

var (
	benchOnce    sync.Once
	benchJournal []byte
	benchErr     error
)

// longJournal returns the bytes of a journal of benchTurns answered
// question turns (assistant tool_use, asked, answered, user tool_result)
// and a last question still pending, written through the Session API.
func longJournal() ([]byte, error) {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "askuser-bench-")
		if err != nil {
			benchErr = err
			return
		}
		defer os.RemoveAll(dir)
		benchJournal, benchErr = writeLongJournal(&Store{Dir: dir})
	})
	return benchJournal, benchErr
}

func writeLongJournal(st *Store) ([]byte, error) {
	s, err := st.Create(Meta{ID: benchID, Provider: "bench", Model: "bench-1", FirstPrompt: "plan the project"})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	in, err := ask.Parse([]byte(benchInput))
	if err != nil {
		return nil, err
	}
	err = s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "plan the project"}}})
	for i := 0; i <= benchTurns && err == nil; i++ {
		id := fmt.Sprintf("toolu_%04d", i)
		req := ask.Request{ID: id, Questions: in.Questions}
		err = s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
			{Type: agentloop.BlockText, Text: fmt.Sprintf("Question %d.", i)},
			{Type: agentloop.BlockToolUse, ID: id, Name: ask.ToolName, Input: json.RawMessage(benchInput)},
		}})
		if err == nil {
			err = s.Asked(req, id, time.Now())
		}
		if i == benchTurns || err != nil {
			break // the last question stays pending
		}
		answers, _ := frontend.Auto{}.Ask(context.Background(), req)
		result := agentloop.Block{Type: agentloop.BlockToolResult, ToolUseID: id, Content: ask.FormatResult(answers)}
		if err = s.Answered(id, result, answers); err == nil {
			err = s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{result}})
		}
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(s.Path())
}

// endTurn is a model that ends its turn at once.
type endTurn struct{}

func (endTurn) Name() string  { return "bench" }
func (endTurn) Model() string { return "bench-1" }
func (endTurn) Complete(ctx context.Context, req agentloop.Request, onText func(string)) (agentloop.Response, error) {
	return agentloop.Response{Message: agentloop.Message{Role: agentloop.RoleAssistant,
		Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "Done."}}}, StopReason: "end_turn"}, nil
}

// BenchmarkSessionLoadResume1000 opens the journal and resumes it: the
// pending question is answered by frontend.Auto, journaled, and the model
// called once. The journal is restored before each iteration, untimed.
func BenchmarkSessionLoadResume1000(b *testing.B) {
	journal, err := longJournal()
	if err != nil {
		b.Fatal(err)
	}
	st := &Store{Dir: b.TempDir()}
	path := st.journal(benchID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(journal)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if err := os.WriteFile(path, journal, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		s, err := st.Open(string(benchID))
		if err != nil {
			b.Fatal(err)
		}
		l := &agentloop.Loop{Provider: endTurn{}, Frontend: frontend.Auto{}, Journal: s}
		out := l.Run(ctx, s.State, nil)
		s.Close()
		if out.Status != agentloop.StatusSuccess || out.Turns != 1 || len(s.State.Messages) != 2*benchTurns+4 {
			b.Fatalf("status %s after %d turns with %d messages: %v", out.Status, out.Turns, len(s.State.Messages), out.Err)
		}
	}
	b.ReportMetric(float64(len(journal)), "file-bytes")
}

// BenchmarkSessionLoadDecodeBaseline reads the same journal and decodes
// every record, without replaying, locking or writing anything.
func BenchmarkSessionLoadDecodeBaseline(b *testing.B) {
	path, journal := longJournalFile(b)
	b.SetBytes(int64(len(journal)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for line := range bytes.Lines(data) {
			var r record
			if err := json.Unmarshal(line, &r); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 4*benchTurns+4 {
			b.Fatalf("%d records, want %d", n, 4*benchTurns+4)
		}
	}
	b.ReportMetric(float64(len(journal)), "file-bytes")
}

// BenchmarkSessionLoadReadBaseline reads the same journal and splits it
// into lines: the floor of anything that looks at every record.
func BenchmarkSessionLoadReadBaseline(b *testing.B) {
	path, journal := longJournalFile(b)
	b.SetBytes(int64(len(journal)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if n := bytes.Count(data, []byte("\n")); n != 4*benchTurns+4 {
			b.Fatalf("%d lines, want %d", n, 4*benchTurns+4)
		}
	}
	b.ReportMetric(float64(len(journal)), "file-bytes")
}

// longJournalFile writes longJournal to a file for the baselines.
func longJournalFile(b *testing.B) (string, []byte) {
	journal, err := longJournal()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), string(benchID)+".jsonl")
	if err := os.WriteFile(path, journal, 0o600); err != nil {
		b.Fatal(err)
	}
	return path, journal
}
