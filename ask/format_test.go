package ask

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// seedResult is the tool result in seed 002 for Database + Features, word
// for word.
const seedResult = `User answered the following questions:

1. Database (Which database should we use for this project?)
   Selected: PostgreSQL

2. Features (Which features should we enable?)
   Selected: TypeScript, ESLint + Prettier, Tailwind CSS

Proceeding with user selections.`

// choose is Selection that fails the test on error.
func choose(t *testing.T, q Question, labels []string, custom string, src Source) Answer {
	t.Helper()
	a, err := Selection(q, labels, custom, src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// seedAnswers are the seed's Database and Features answered by a person.
func seedAnswers(t *testing.T) []Answer {
	db := fixtureQuestions(t, "database.json")[0]
	features := fixtureQuestions(t, "features.json")[0]
	return []Answer{
		choose(t, db, []string{"PostgreSQL"}, "", SourcePerson),
		choose(t, features, []string{"TypeScript", "ESLint + Prettier", "Tailwind CSS"}, "", SourcePerson),
	}
}

func TestFormatResultSeedLiteral(t *testing.T) {
	if got := FormatResult(seedAnswers(t)); got != seedResult {
		t.Errorf("FormatResult =\n%s\nwant\n%s", got, seedResult)
	}
}

var (
	askedAt    = time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC)
	answeredAt = askedAt.Add(2*time.Hour + 13*time.Minute)
)

// goldenCases builds each case's answers. The names are the golden file
// names under testdata/golden.
func goldenCases(t *testing.T) map[string][]Answer {
	db := fixtureQuestions(t, "database.json")[0]
	features := fixtureQuestions(t, "features.json")[0]
	pm := fixtureQuestions(t, "package-manager.json")[0]
	auth := fixtureQuestions(t, "auth.json")

	fromFile := choose(t, db, []string{"SQLite"}, "", SourceFile)
	fromFile.Via = "answers.yaml"
	policy := choose(t, pm, []string{"pnpm"}, "", SourcePolicy)
	policy.Reason = "no person answered within 5m0s"
	program := choose(t, auth[0], []string{"JWT"}, "", SourceProgram)
	program.Via = "ci-bot"
	late := choose(t, db, []string{"MongoDB"}, "", SourcePerson)
	late.AnsweredAt, late.Late = answeredAt, &Late{AskedAt: askedAt}
	mixPolicy := choose(t, auth[1], []string{"Google", "GitHub"}, "", SourcePolicy)
	mixPolicy.Reason = "the answers file has no entry for it"
	slack := choose(t, db, []string{"SQLite"}, "", SourcePerson)
	slack.Via = ViaOn("@alice", "Slack")
	lateChat := choose(t, features, []string{"TypeScript"}, "and a \x1b[31mdemo", SourcePerson)
	lateChat.Via, lateChat.AnsweredAt, lateChat.Late = ViaOn("@bob\u202e", "Telegram"), answeredAt, &Late{AskedAt: askedAt}
	webPage := choose(t, pm, []string{"pnpm"}, "", SourcePerson)
	webPage.Via = "web page"

	return map[string][]Answer{
		"seed-two-questions":  seedAnswers(t),
		"free-text":           {choose(t, pm, nil, "bun", SourcePerson)},
		"multi-select-other":  {choose(t, features, []string{"TypeScript", "Tailwind CSS"}, "Biome instead of ESLint", SourcePerson)},
		"skipped":             {choose(t, db, nil, "", SourcePerson), choose(t, features, nil, "", SourcePerson)},
		"answers-file":        {fromFile},
		"policy":              {policy},
		"program":             {program},
		"mixed":               {choose(t, auth[0], []string{"OAuth 2.0"}, "", SourcePerson), mixPolicy},
		"late":                {late},
		"recommended-bare":    recommendedBare(),
		"control-chars":       {hostile()},
		"unset-selected-json": {{Question: db.Question, Header: db.Header, Custom: "DuckDB", Source: SourcePerson}},
		"declined":            {Decline(db, "", answeredAt), Decline(features, "not needed \x1b[31many more\x1b[0m,\n  I chose myself", answeredAt)},
		"declined-some":       {choose(t, auth[0], []string{"JWT"}, "", SourcePerson), Decline(auth[1], "later", answeredAt)},
		"declined-mixed":      {fromFile, Decline(pm, "", answeredAt)},
		"channel":             {slack, lateChat},
		"person-medium":       {webPage},
	}
}

// recommendedBare has answers built by hand, as a frontend might, with the
// label still carrying "(Recommended)".
func recommendedBare() []Answer {
	return []Answer{
		{Question: "Which database should we use for this project?", Header: "Database",
			Selected: []string{"PostgreSQL (Recommended)"}, Source: SourcePerson},
		{Question: "Which features should we enable?", Header: "Features",
			Selected: []string{"TypeScript (recommended)", " Tailwind CSS "}, Source: SourcePerson},
	}
}

// hostile is an answer to a question whose model-written text is full of
// escape sequences and control characters.
func hostile() Answer {
	q := Question{
		Question: "Which \x1b[31mdatabase\x1b[0m\nshould we use?\x1b]0;pwned\x07",
		Header:   "\x1b[2J\x1b[HDB\u202E",
		Options: []Option{
			{Label: "\x1b]8;;https://evil.example\x1b\\Postgres\x1b]8;;\x1b\\ (Recommended)"},
			{Label: "SQL\x00ite\x7f\u009b31m"},
		},
	}
	return Answer{Question: q.Question, Header: q.Header, Selected: []string{q.Options[0].Label, q.Options[1].Label},
		Custom: "typed \x1b[1mbold\x1b[0m\r\n", Source: SourcePerson}
}

func TestFormatGolden(t *testing.T) {
	for name, answers := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			text := FormatResult(answers)
			golden(t, name+".txt", []byte(text+"\n"))
			js, err := json.Marshal(answers)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".json", append(js, '\n'))
			if bad := firstUnsafe(text, true); bad >= 0 {
				t.Errorf("result carries unsafe rune %U", bad)
			}
		})
	}
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ask -run Golden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// The golden files are reviewed by eye once; these checks pin what each
// case is about, so a wrong -update cannot slip through.
func TestFormatResultCases(t *testing.T) {
	cases := goldenCases(t)
	has := func(name string, want ...string) {
		t.Helper()
		text := FormatResult(cases[name])
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: result does not contain %q:\n%s", name, w, text)
			}
		}
	}
	lacks := func(name string, bad ...string) {
		t.Helper()
		text := FormatResult(cases[name])
		for _, b := range bad {
			if strings.Contains(text, b) {
				t.Errorf("%s: result contains %q:\n%s", name, b, text)
			}
		}
	}
	has("free-text", "   Other: bun\n", headAllPerson, tailAllPerson)
	lacks("free-text", "Selected:", "Answered by")
	has("multi-select-other", "   Selected: TypeScript, Tailwind CSS\n   Other: Biome instead of ESLint\n")
	has("skipped", "1. Database (Which database should we use for this project?)\n   Skipped: no option chosen and no text given\n\n2.")
	has("answers-file", headNoPerson, "   Answered by: an answers file (answers.yaml), set in advance, not chosen by a person at the time\n", tailMachine)
	has("policy", headNoPerson, "   Answered by: the recommended-option policy, not a person; no person answered within 5m0s\n", tailMachine)
	has("program", headNoPerson, "   Answered by: a program over JSON lines (ci-bot), not confirmed to be a person\n", tailMachine)
	has("mixed", headSomePerson, "   Selected: OAuth 2.0\n\n2.", "   Answered by: the recommended-option policy, not a person; the answers file has no entry for it\n", tailMachine)
	lacks("mixed", headAllPerson, tailAllPerson)
	lacks("mixed", "1. Auth Method (Which authentication method should we use?)\n   Selected: OAuth 2.0\n   Answered by")
	has("late", headAllPerson, "   Answered later: by a person, 2h13m after it was asked; the run had stopped to wait for it and was resumed\n")
	has("recommended-bare", "   Selected: PostgreSQL\n", "   Selected: TypeScript, Tailwind CSS\n")
	lacks("recommended-bare", "ecommended")
	has("control-chars", "1. DB (Which database should we use?)\n   Selected: Postgres, SQLite\n   Other: typed bold\n")
	lacks("control-chars", "\x1b", "pwned", "evil.example")
	has("declined", headAllDeclined, "   Declined: the user chose not to answer (no reason given)\n\n2.",
		"   Declined: the user chose not to answer; their reason: not needed any more, I chose myself\n", tailDeclined)
	lacks("declined", headAllPerson, tailAllPerson, "Skipped", "Selected", "Answered by", "\x1b")
	has("declined-some", headPersonDeclined, "   Selected: JWT\n", "   Declined: the user chose not to answer; their reason: later\n", tailPersonDeclined+" "+tailSomeDeclined)
	lacks("declined-some", headAllPerson, tailAllPerson, "Answered by")
	has("channel", headAllPerson, "   Selected: SQLite\n   Via: @alice on Slack\n\n2.",
		"   Selected: TypeScript\n   Other: and a demo\n   Via: @bob on Telegram\n   Answered later: by a person, 2h13m", tailAllPerson)
	lacks("channel", "Answered by", "\x1b", "\u202e")
	// A medium (the page, JSON lines) is not a person: it stays out of the
	// result, as before.
	lacks("person-medium", "Via", "web page")
	has("declined-mixed", headSomeDeclined, "   Answered by: an answers file (answers.yaml)", tailMachine+" "+tailSomeDeclined)
}

// A declination's reason is cleaned and bounded wherever it comes from:
// a hostile or huge reason cannot reach the model whole.
func TestDeclineReasonBounded(t *testing.T) {
	db := fixtureQuestions(t, "database.json")[0]
	a := Decline(db, strings.Repeat("why ", 1000)+"\x1b]0;pwned\x07", answeredAt)
	if n := len([]rune(a.Declined.Reason)); n != MaxDeclineReasonChars {
		t.Errorf("reason of %d characters kept, want %d", n, MaxDeclineReasonChars)
	}
	// A reason written straight into a journal is cleaned when shown.
	a.Declined.Reason = "a\x1b[2Jb\nc"
	if text := FormatResult([]Answer{a}); !strings.Contains(text, "their reason: ab c\n") {
		t.Errorf("raw reason not cleaned in the result:\n%q", text)
	}
	if a.Skipped {
		t.Error("a declined answer is marked skipped")
	}
}

func TestAnswerJSON(t *testing.T) {
	cases := goldenCases(t)
	for _, name := range []string{"skipped", "unset-selected-json"} {
		out, err := json.Marshal(cases[name])
		if err != nil {
			t.Fatal(err)
		}
		var got []map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, fields := range got {
			if s := string(fields["selectedOptions"]); s != "[]" {
				t.Errorf("%s: selectedOptions = %s, want []", name, s)
			}
			if _, ok := fields["answeredAt"]; ok {
				t.Errorf("%s: zero answeredAt written: %v", name, fields)
			}
		}
	}
	// An Answer round-trips through its JSON, Late and all.
	late := cases["late"][0]
	var back Answer
	b, err := json.Marshal(late)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.AnsweredAt.Equal(late.AnsweredAt) || back.Late == nil || !back.Late.AskedAt.Equal(askedAt) {
		t.Errorf("late answer round-tripped to %+v", back)
	}
}

func TestHumanDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{45 * time.Second, "45s"},
		{45*time.Second + 400*time.Millisecond, "45s"},
		{59*time.Second + 600*time.Millisecond, "1m"},
		{time.Minute, "1m"},
		{12*time.Minute + 40*time.Second, "12m"},
		{time.Hour, "1h0m"},
		{2*time.Hour + 13*time.Minute, "2h13m"},
		{47*time.Hour + 59*time.Minute, "47h59m"},
		{48 * time.Hour, "2d0h"},
		{76 * time.Hour, "3d4h"},
	}
	for _, tt := range tests {
		if got := HumanDuration(tt.d); got != tt.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
