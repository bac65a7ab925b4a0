package ask

import (
	"slices"
	"strings"
	"testing"
)

// invisibleTests: text with characters a person cannot see, and what
// Display leaves of it.
var invisibleTests = []struct{ name, in, want string }{
	{"zero-width space", "Prod\u200buction", "Production"},
	{"zero-width joiner between Latin letters", "Prod\u200duction", "Production"},
	{"zero-width non-joiner between Latin letters", "Prod\u200cuction", "Production"},
	{"word joiner and invisible operators", "a\u2060b\u2062c\u2064d", "abcd"},
	{"BOM", "\ufeffOther", "Other"},
	{"LRM and RLM", "\u200eyes\u200f", "yes"},
	{"soft hyphen", "Post\u00adgreSQL", "PostgreSQL"},
	{"tag characters", "flag\U000E0067\U000E0062\U000E007F", "flag"},
	{"variation selector after a letter", "A\ufe0f", "A"},
	{"ideographic variation selector after a letter", "x\U000E0100", "x"},
	{"combining grapheme joiner", "a\u034fb", "ab"},
	{"Hangul filler", "\u3164\uffa0ok", "ok"},
	{"Mongolian vowel separator", "a\u180eb", "ab"},
	{"deprecated format characters", "a\u206ab\u206fc", "abc"},
	{"joiner at the ends", "\u200dA\u200c", "A"},
	// Kept where they are seen.
	{"ZWNJ in Persian", "می\u200cخواهم", "می\u200cخواهم"},
	{"ZWJ in Devanagari", "क्\u200dष", "क्\u200dष"},
	{"ZWJ emoji sequence", "👩\u200d💻 ❤\ufe0f\u200d🔥", "👩\u200d💻 ❤\ufe0f\u200d🔥"},
	{"ZWJ after an emoji, before a letter", "👍\u200dYes", "👍Yes"},
	{"emoji variation selector", "⚠\ufe0f Risky", "⚠\ufe0f Risky"},
	{"ideographic variation", "葛\U000E0100", "葛\U000E0100"},
	{"Arabic number sign is drawn", "\u0600١٢", "\u0600١٢"},
}

func TestDisplayRemovesInvisible(t *testing.T) {
	for _, tt := range invisibleTests {
		t.Run(tt.name, func(t *testing.T) {
			got := Display(tt.in)
			if got != tt.want {
				t.Errorf("Display(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := Display(got); again != got {
				t.Errorf("Display is not idempotent: Display(%q) = %q", got, again)
			}
			if block := DisplayBlock(tt.in); block != tt.want {
				t.Errorf("DisplayBlock(%q) = %q, want %q", tt.in, block, tt.want)
			}
		})
	}
}

// TestLookAlikes: labels and questions that differ only by what a person
// cannot see are the same label or question, and a label that looks like
// "Other" is "Other".
func TestLookAlikes(t *testing.T) {
	tests := []problemCase{
		{"zero-width space in a label", oneQuestion(`{"question":"Where?","header":"Env","options":["Production","Prod\u200buction"]}`),
			`questions[0].options[1].label: "Prod\u200buction" repeats options[0]; labels must be unique within a question`},
		{"bidi override in a label", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","\u202dStaging\u202c"]}`),
			`questions[0].options[1].label: "\u202dStaging\u202c" repeats options[0]; labels must be unique within a question`},
		{"Other with a zero-width space", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","Other\u200b"]}`),
			`questions[0].options[1].label: "Other\u200b" is added automatically for free text; remove this option`},
		{"Other with a BOM and a soft hyphen", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","\ufeffOth\u00ader"]}`),
			`questions[0].options[1].label: "\ufeffOth\u00ader" is added automatically for free text; remove this option`},
		{"a label of nothing visible", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","\u200b\u2060"]}`),
			`questions[0].options[1].label: is empty; give a short label of 1 to 5 words`},
		{"a header of nothing visible", oneQuestion(`{"question":"Where?","header":"\u200b","options":["Staging","Prod"]}`),
			`questions[0].header: is required: give a short label of at most 12 characters, such as "Database"`},
		{"the same question with a word joiner", `{"questions":[` + validQ + `,` + strings.Replace(validQ, "Which", "Wh\u2060ich", 1) + `]}`,
			`questions[1].question: repeats questions[0].question; each question text must be unique`},
	}
	wantProblems(t, tests)
}

// problemCase is an input Parse must refuse with a problem, given in full.
type problemCase struct{ name, input, want string }

// wantProblems parses each case's input and checks its problem is among
// those reported.
func wantProblems(t *testing.T, cases []problemCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.input))
			if err == nil {
				t.Fatalf("accepted %s", tt.input)
			}
			if got := problemStrings(problemsOf(t, err)); !slices.Contains(got, tt.want) {
				t.Errorf("problems =\n%s\nwant among them\n%s", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// TestLookAlikeShownAndReturnedClean: a label with an invisible character
// is shown and returned as the person sees it.
func TestLookAlikeShownAndReturnedClean(t *testing.T) {
	in, err := Parse([]byte(oneQuestion(`{"question":"Where\u200b?","header":"En\u200bv","options":["Prod\u200buction","Staging"]}`)))
	if err != nil {
		t.Fatal(err)
	}
	q := in.Questions[0]
	if i := q.LabelIndex("Production"); i != 0 {
		t.Errorf(`LabelIndex("Production") = %d, want 0`, i)
	}
	a, err := Selection(q, []string{"production"}, "", SourceProgram)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Selected, []string{"Production"}) {
		t.Errorf("Selected = %q, want [Production]", a.Selected)
	}
	if text := FormatResult([]Answer{a}); strings.Contains(text, "\u200b") || !strings.Contains(text, "1. Env (Where?)") {
		t.Errorf("result carries the invisible character or lost the text:\n%q", text)
	}
}

// TestHugeOtherLookAlike: "Other" followed by a megabyte of zero-width
// spaces is "Other", and the problem quotes a prefix of it.
func TestHugeOtherLookAlike(t *testing.T) {
	label := "Other" + strings.Repeat(`\u200b`, mib/6)
	_, err := Parse([]byte(oneQuestion(`{"question":"Where?","header":"Env","options":["A","` + label + `"]}`)))
	if err == nil {
		t.Fatal("accepted Other followed by zero-width spaces")
	}
	if text := err.(*ValidationError).ToolResult(); len(text) > 4096 || !strings.Contains(text, "added automatically") || !strings.Contains(text, " characters)") {
		t.Errorf("tool result is %d bytes; want at most 4 KiB, about Other, with the length: %.300s", len(text), text)
	}
}

// A model's input that names a member twice is ambiguous: JSON would keep
// only the last, and a question set or a label would vanish unseen.
func TestParseRejectsDuplicateKeys(t *testing.T) {
	for in, want := range map[string]string{
		`{"questions":[],"questions":[{"question":"Q?","header":"H","options":[{"label":"A"},{"label":"B"}]}]}`:                  `input: gives "questions" twice`,
		`{"questions":[{"question":"Q?","header":"H","options":[{"label":"A","label":"Z"},{"label":"B"}],"multiSelect":false}]}`: `gives "label" twice`,
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want an error with %q", in, err, want)
		}
	}
}

func TestRecommendedWithInvisibleCharacters(t *testing.T) {
	l := "Staging (Recommended\u200b)"
	if !IsRecommended(l) || BareLabel(l) != "Staging" {
		t.Errorf("IsRecommended %v, BareLabel %q; a label that reads as recommended is", IsRecommended(l), BareLabel(l))
	}
}

// TestLookAlikeLetters: letters of other scripts drawn like Latin ones
// (Cyrillic О, Greek Ο, fullwidth Ｏ) make a label read as another: as
// "Other", which is rejected, as a label of the same question, which is a
// repeat, or as "(Recommended)", which marks the option.
func TestLookAlikeLetters(t *testing.T) {
	tests := []problemCase{
		{"Cyrillic O in Other", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","\u041ether"]}`),
			"questions[0].options[1].label: \"\u041ether\" looks like \"Other\" (letters of another script drawn like Latin ones), which is added automatically for free text; remove this option"},
		{"Greek Omicron in Other", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","\u039fth\u0435r"]}`),
			"questions[0].options[1].label: \"\u039fth\u0435r\" looks like \"Other\" (letters of another script drawn like Latin ones), which is added automatically for free text; remove this option"},
		{"fullwidth Other", oneQuestion(`{"question":"Where?","header":"Env","options":["Staging","\uff2f\uff54\uff48\uff45\uff52"]}`),
			"questions[0].options[1].label: \"\uff2f\uff54\uff48\uff45\uff52\" looks like \"Other\" (letters of another script drawn like Latin ones), which is added automatically for free text; remove this option"},
		{"Cyrillic o in a label", oneQuestion(`{"question":"Which?","header":"DB","options":["Postgres","P\u043estgres"]}`),
			"questions[0].options[1].label: \"P\u043estgres\" repeats options[0]; labels must be unique within a question"},
		{"a whole-Cyrillic look-alike", oneQuestion(`{"question":"Go on?","header":"Go","options":["Yes","\u04ae\u0435\u0455"]}`),
			"questions[0].options[1].label: \"\u04ae\u0435\u0455\" repeats options[0]; labels must be unique within a question"},
		{"a look-alike question", `{"questions":[` + validQ + `,` + strings.Replace(validQ, "Which", "Wh\u0456ch", 1) + `]}`,
			"questions[1].question: repeats questions[0].question; each question text must be unique"},
	}
	wantProblems(t, tests)
}

// A look-alike "(Recommended)" marks the option, and is cut from the
// label, as the real one is; a reference in Latin letters finds a label
// written with look-alikes.
func TestLookAlikeRecommendedAndMatching(t *testing.T) {
	for _, l := range []string{"Staging (R\u0435commended)", "Staging \uff08Recommended\uff09", "Staging (R\u0435c\u043emm\u0435nd\u0435d)"} {
		if !IsRecommended(l) || BareLabel(l) != "Staging" {
			t.Errorf("%q: IsRecommended %v, BareLabel %q; want true, Staging", l, IsRecommended(l), BareLabel(l))
		}
	}
	q := Question{Question: "Which?", Header: "DB", Options: []Option{{Label: "P\u043estgres"}, {Label: "SQLite"}}}
	if i := q.LabelIndex("postgres"); i != 0 {
		t.Errorf(`LabelIndex("postgres") = %d, want 0`, i)
	}
	// The label goes back as the model wrote it.
	if a, err := Selection(q, []string{"Postgres"}, "", SourceProgram); err != nil || a.Selected[0] != "P\u043estgres" {
		t.Errorf("Selection = %v, %v; want the label as written", a.Selected, err)
	}
}

// Labels wholly in another script are kept, look-alike letters and all:
// Russian "Другое" means "other" but does not look like it.
func TestNonLatinLabelsKept(t *testing.T) {
	for _, opts := range []string{
		`["Да","Нет","Другое"]`,
		`["Ναι","Όχι"]`,
		`["Сервер","Клиент"]`,
		`["Postgres","Постгрес"]`,
	} {
		if _, err := Parse([]byte(oneQuestion(`{"question":"Q?","header":"H","options":` + opts + `}`))); err != nil {
			t.Errorf("options %s: %v", opts, err)
		}
	}
}
