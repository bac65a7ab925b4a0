package asktest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
)

// recorder is a testing.TB that keeps what the fake reports.
type recorder struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) end() {
	for _, f := range r.cleanups {
		f()
	}
}

var db = ask.Request{ID: "q1", Questions: []ask.Question{{Question: "Which database?", Header: "Database",
	Options: []ask.Option{{Label: "PostgreSQL (Recommended)"}, {Label: "SQLite"}}}}}

func TestAnswersAsScripted(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("database").Choose("sqlite")
	fe.Expect("q1").Other("DuckDB").From(ask.SourceProgram)
	a, err := fe.Ask(context.Background(), db)
	if err != nil || a[0].Selected[0] != "SQLite" || a[0].Source != ask.SourcePerson {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = fe.Ask(context.Background(), db)
	if err != nil || a[0].Custom != "DuckDB" || a[0].Source != ask.SourceProgram {
		t.Fatalf("%+v %v", a, err)
	}
	if len(fe.Asked()) != 2 {
		t.Errorf("asked %d sets", len(fe.Asked()))
	}
}

func TestChecksItself(t *testing.T) {
	r := &recorder{}
	fe := asktest.New(r)
	fe.Expect("Region").Choose("eu")
	fe.Expect("Database").Choose("MySQL")
	if _, err := fe.Ask(context.Background(), ask.Request{ID: "q9", Questions: []ask.Question{{Header: "Color", Options: []ask.Option{{Label: "a"}, {Label: "b"}}}}}); !errors.Is(err, ask.ErrNoAnswer) {
		t.Errorf("unexpected set: err %v", err)
	}
	if _, err := fe.Ask(context.Background(), db); !errors.Is(err, ask.ErrNoAnswer) {
		t.Errorf("a scripted label that is not an option: err %v", err)
	}
	r.end()
	all := strings.Join(r.errs, "\n")
	for _, want := range []string{"unexpected question set q9", `"MySQL" is not a label`, `matching "Region" was expected but never asked`} {
		if !strings.Contains(all, want) {
			t.Errorf("reports %q lack %q", all, want)
		}
	}
}

func TestFailAndCancel(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("q1").Fail(ask.ErrDeferred)
	if _, err := fe.Ask(context.Background(), db); !errors.Is(err, ask.ErrDeferred) {
		t.Errorf("err %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fe.Ask(ctx, db); !errors.Is(err, ask.ErrCancelled) {
		t.Errorf("cancelled ctx: err %v", err)
	}
}
