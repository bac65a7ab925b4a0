package ask

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func fixtureQuestions(t *testing.T, name string) []Question {
	t.Helper()
	in, err := Parse(readFixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return in.Questions
}

func TestSelection(t *testing.T) {
	db := fixtureQuestions(t, "database.json")[0]       // single: PostgreSQL (Recommended), MongoDB, SQLite
	features := fixtureQuestions(t, "features.json")[0] // multi
	tests := []struct {
		name     string
		q        Question
		labels   []string
		custom   string
		selected []string
		wantText string // free text kept
		skipped  bool
		err      string // substring; "" for success
	}{
		{name: "exact label", q: db, labels: []string{"SQLite"}, selected: []string{"SQLite"}},
		{name: "case-insensitive", q: db, labels: []string{"  mongodb "}, selected: []string{"MongoDB"}},
		{name: "bare label of a recommended option", q: db, labels: []string{"PostgreSQL"}, selected: []string{"PostgreSQL"}},
		{name: "label with Recommended", q: db, labels: []string{"postgresql (recommended)"}, selected: []string{"PostgreSQL"}},
		{name: "free text only", q: db, custom: "  CockroachDB\n", selected: []string{}, wantText: "CockroachDB"},
		{name: "free text cleaned", q: db, custom: "\x1b[31mDuckDB\x1b[0m", selected: []string{}, wantText: "DuckDB"},
		{name: "nothing is skipped", q: db, selected: []string{}, skipped: true},
		{name: "blank free text is skipped", q: db, custom: " \x1b[0m ", selected: []string{}, skipped: true},
		{name: "multi in option order", q: features, labels: []string{"tailwind css", "TypeScript", "ESLint + Prettier"},
			selected: []string{"TypeScript", "ESLint + Prettier", "Tailwind CSS"}},
		{name: "multi with free text", q: features, labels: []string{"TypeScript"}, custom: "Biome",
			selected: []string{"TypeScript"}, wantText: "Biome"},
		{name: "a label twice counts once", q: db, labels: []string{"SQLite", "sqlite"}, selected: []string{"SQLite"}},
		{name: "two labels on single-select", q: db, labels: []string{"SQLite", "MongoDB"},
			err: `question "Database" takes one answer, got 2; give one label or free text`},
		{name: "label and text on single-select", q: db, labels: []string{"SQLite"}, custom: "DuckDB",
			err: `question "Database" takes one answer, got 2`},
		{name: "unknown label", q: db, labels: []string{"Oracle"},
			err: `"Oracle" is not a label of question "Database"; choose from: PostgreSQL, MongoDB, SQLite`},
		{name: "Other as a label", q: db, labels: []string{"Other"},
			err: `"Other" is not a label of question "Database"; to give free text, set customInput (JSON) or other: (answers file)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Selection(tt.q, tt.labels, tt.custom, SourcePerson)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.Selected, tt.selected) || a.Selected == nil {
				t.Errorf("Selected = %#v, want %#v", a.Selected, tt.selected)
			}
			if a.Custom != tt.wantText || a.Skipped != tt.skipped {
				t.Errorf("Custom = %q, Skipped = %v; want %q, %v", a.Custom, a.Skipped, tt.wantText, tt.skipped)
			}
			if a.Question != tt.q.Question || a.Header != tt.q.Header || a.Source != SourcePerson {
				t.Errorf("answer does not carry its question and source: %+v", a)
			}
		})
	}
}

func TestSelectionErrorIsDisplaySafe(t *testing.T) {
	q := Question{Question: "Q?", Header: "H\x1b[2J", Options: options("\x1b]0;pwn\x07Safe", "Fine\u202E")}
	_, err := Selection(q, []string{"\x1b[31mnope"}, "", SourceFile)
	if err == nil {
		t.Fatal("unknown label accepted")
	}
	if bad := firstUnsafe(err.Error(), false); bad >= 0 {
		t.Errorf("error %q carries unsafe rune %U", err, bad)
	}
	if !strings.Contains(err.Error(), "choose from: Safe, Fine") {
		t.Errorf("error %q does not list the labels as displayed", err)
	}
}

func TestFindQuestion(t *testing.T) {
	qs := fixtureQuestions(t, "auth.json")
	dup := []Question{question(0), question(1), question(2)}
	dup[1].Header, dup[2].Header = "Same", "same"
	tests := []struct {
		name          string
		qs            []Question
		ref           string
		idx           int
		ok, ambiguous bool
	}{
		{"by header", qs, "Providers", 1, true, false},
		{"by header, any case and space", qs, "  auth   METHOD ", 0, true, false},
		{"by question text", qs, "which oauth providers should we support?", 1, true, false},
		{"unknown", qs, "Database", -1, false, false},
		{"ambiguous header", dup, "SAME", -1, false, true},
		{"text wins over an ambiguous header", dup, dup[2].Question, 2, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx, ok, ambiguous := FindQuestion(tt.qs, tt.ref)
			if idx != tt.idx || ok != tt.ok || ambiguous != tt.ambiguous {
				t.Errorf("FindQuestion(%q) = %d, %v, %v; want %d, %v, %v", tt.ref, idx, ok, ambiguous, tt.idx, tt.ok, tt.ambiguous)
			}
		})
	}
}

func TestLabelHelpers(t *testing.T) {
	tests := []struct {
		label       string
		recommended bool
		bare, key   string
	}{
		{"PostgreSQL (Recommended)", true, "PostgreSQL", "postgresql"},
		{"  pnpm (recommended)  ", true, "pnpm", "pnpm"},
		{"OAuth 2.0(RECOMMENDED)", true, "OAuth 2.0", "oauth 2.0"},
		{"SQLite", false, "SQLite", "sqlite"},
		{"Recommended", false, "Recommended", "recommended"},
		{"(Recommended) first", false, "(Recommended) first", "(recommended) first"},
		{"(Recommended)", true, "", ""},
		{"Two   Words", false, "Two   Words", "two words"},
		{"\x1b[1mBold\x1b[0m (Recommended)", true, "\x1b[1mBold\x1b[0m", "bold"},
		{"", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := IsRecommended(tt.label); got != tt.recommended {
				t.Errorf("IsRecommended = %v, want %v", got, tt.recommended)
			}
			if got := BareLabel(tt.label); got != tt.bare {
				t.Errorf("BareLabel = %q, want %q", got, tt.bare)
			}
			if got := FoldKey(tt.label); got != tt.key {
				t.Errorf("FoldKey = %q, want %q", got, tt.key)
			}
		})
	}
	q := fixtureQuestions(t, "package-manager.json")[0]
	if got := q.Recommended(); !slices.Equal(got, []int{1}) {
		t.Errorf("Recommended() = %v, want [1]", got)
	}
	if got := q.LabelList(); got != "npm, pnpm, yarn" {
		t.Errorf("LabelList() = %q", got)
	}
	if i := q.LabelIndex("PNPM"); i != 1 {
		t.Errorf("LabelIndex(PNPM) = %d, want 1", i)
	}
}

func TestParsePolicy(t *testing.T) {
	for _, p := range []Policy{PolicyError, PolicyAuto, PolicySuspend} {
		got, err := ParsePolicy("--on-timeout", string(p))
		if err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %q, %v", p, got, err)
		}
	}
	for _, s := range []string{"", "Auto", "recommended", "skip"} {
		_, err := ParsePolicy("--on-timeout", s)
		want := `--on-timeout: "` + s + `" is not a policy; use error, auto or suspend`
		if err == nil || err.Error() != want {
			t.Errorf("ParsePolicy(%q) error = %v, want %q", s, err, want)
		}
	}
}

func TestCtxErr(t *testing.T) {
	if err := CtxErr(context.Background()); err != nil {
		t.Errorf("live context: %v", err)
	}

	deadline, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	err := CtxErr(deadline)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrCancelled) {
		t.Errorf("deadline: %v, want ErrTimeout wrapping context.DeadlineExceeded", err)
	}

	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	err = CtxErr(cancelled)
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Errorf("cancel: %v, want ErrCancelled wrapping context.Canceled", err)
	}

	// A run that stops waiting by cancelling with ErrTimeout as the cause
	// is a timeout too.
	caused, cancel3 := context.WithCancelCause(context.Background())
	cancel3(ErrTimeout)
	err = CtxErr(caused)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancel with ErrTimeout cause: %v, want ErrTimeout wrapping context.Canceled", err)
	}
}

func TestSourceDescribe(t *testing.T) {
	for _, s := range []Source{SourcePerson, SourceProgram, SourceFile, SourcePolicy, "", "robot\x1b[2J"} {
		d := s.Describe()
		if d == "" || firstUnsafe(d, false) >= 0 {
			t.Errorf("Describe(%q) = %q, want a safe non-empty name", s, d)
		}
		if s != SourcePerson && strings.Contains(d, "a person") && !strings.Contains(d, "not") && !strings.Contains(d, "no person") {
			t.Errorf("Describe(%q) = %q passes a machine off as a person", s, d)
		}
	}
	if got := Source("").Describe(); !strings.Contains(got, "unknown") {
		t.Errorf("empty source described as %q", got)
	}
}
