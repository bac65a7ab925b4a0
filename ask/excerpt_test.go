package ask

import (
	"encoding/json"
	"strings"
	"testing"
)

// Input built to hurt: huge values, and values built to fail many times
// over. Whatever it is, the answer (the error tool result, the error text)
// stays a few kilobytes and quotes only a prefix of what it rejects.

const mib = 1 << 20

// hugeInputs are inputs whose problems quote a 1 MiB value.
func hugeInputs() map[string]string {
	big := strings.Repeat("H", mib)
	q := func(header, labels string) string {
		return oneQuestion(`{"question":"Which?","header":"` + header + `","options":[` + labels + `]}`)
	}
	return map[string]string{
		"header":                    q(big, `"A","B"`),
		"duplicate label":           q("H", `"`+big+`","`+big+`"`),
		"unknown key":               `{"questions":[` + validQ + `],"` + big + `":1}`,
		"unknown key in a question": oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"` + big + `":1}`),
	}
}

func TestHugeValuesAreExcerpted(t *testing.T) {
	for name, input := range hugeInputs() {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(input))
			ve, ok := err.(*ValidationError)
			if !ok {
				t.Fatalf("Parse error = %v, want a *ValidationError", err)
			}
			for what, text := range map[string]string{"ToolResult": ve.ToolResult(), "Error": ve.Error()} {
				if len(text) > 4096 {
					t.Errorf("%s is %d bytes, want at most 4 KiB: %.300s…", what, len(text), text)
				}
				if !strings.Contains(text, " characters)") {
					t.Errorf("%s does not say how long the value was: %s", what, text)
				}
			}
		})
	}
}

func TestExcerpt(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Database", `"Database"`},
		{"", `""`},
		{strings.Repeat("x", ExcerptChars), `"` + strings.Repeat("x", ExcerptChars) + `"`},
		{strings.Repeat("x", ExcerptChars+1), `"` + strings.Repeat("x", ExcerptChars) + `"… (61 characters)`},
		{strings.Repeat("é", 100), `"` + strings.Repeat("é", ExcerptChars) + `"… (100 characters)`},
		{"\x1b]0;pwn\x07Prod\u200buction\u202e\xff", `"\x1b]0;pwn\aProd\u200buction\u202e\xff"`},
	}
	for _, tt := range tests {
		if got := Excerpt(tt.in); got != tt.want {
			t.Errorf("Excerpt(%.80q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestManyProblemsAreCounted sends input that fails in 100,000 ways: the
// error lists MaxListedProblems and counts the rest, each once (the
// validation pass must not count again what decoding counted).
func TestManyProblemsAreCounted(t *testing.T) {
	items := strings.Repeat(`1,`, 100_000)
	_, err := Parse([]byte(`{"questions":[` + items + `1]}`))
	ve, ok := err.(*ValidationError)
	if !ok {
		t.Fatalf("Parse error = %v, want a *ValidationError", err)
	}
	// 100,001 elements that are not objects, and too many questions.
	if want := 100_002; len(ve.Problems) != MaxListedProblems || len(ve.Problems)+ve.Omitted != want {
		t.Errorf("listed %d and omitted %d problems, want %d listed and %d in all", len(ve.Problems), ve.Omitted, MaxListedProblems, want)
	}
	result := ve.ToolResult()
	if len(result) > 4096 || !strings.Contains(result, "more problems, not listed") {
		t.Errorf("tool result is %d bytes; want at most 4 KiB, saying more problems were not listed:\n%.600s", len(result), result)
	}
	if !strings.HasPrefix(ve.Problems[0].Path, "questions") {
		t.Errorf("first problem is %v, want one about questions", ve.Problems[0])
	}
}

// TestDeepNesting: 100,000 open brackets are invalid JSON, said so briefly.
func TestDeepNesting(t *testing.T) {
	for _, input := range []string{
		`{"questions":` + strings.Repeat("[", 100_000),
		`{"questions":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`,
		`{"questions":"` + strings.Repeat("[", 100_000) + `"}`,
	} {
		_, err := Parse([]byte(input))
		ve, ok := err.(*ValidationError)
		if !ok || len(ve.Problems) != 1 || len(ve.ToolResult()) > 1024 {
			t.Errorf("Parse(%.40s…) = %v; want one short problem", input, err)
		}
	}
	var v any
	if json.Unmarshal([]byte(`{"questions":`+strings.Repeat("[", 100_000)), &v) == nil {
		t.Fatal("encoding/json accepted 100,000 open brackets")
	}
}
