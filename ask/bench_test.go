package ask

import (
	"encoding/json"
	"strings"
	"testing"
)

// fourByFourAnswers are the labels chosen for four-by-four.json: the
// recommended option of each single-select, two options of each multi.
var fourByFourAnswers = [][]string{
	{"PostgreSQL"},
	{"TypeScript", "Tailwind CSS"},
	{"Vercel"},
	{"Linux", "macOS"},
}

// BenchmarkParseValidateFormat is one question set's whole trip through
// this package: decode, validate, build the four answers, format the result.
func BenchmarkParseValidateFormat(b *testing.B) {
	data := readFixture(b, "four-by-four.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		in, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		answers := make([]Answer, len(in.Questions))
		for i, q := range in.Questions {
			if answers[i], err = Selection(q, fourByFourAnswers[i], "", SourcePerson); err != nil {
				b.Fatal(err)
			}
		}
		if FormatResult(answers) == "" {
			b.Fatal("empty result")
		}
	}
}

// BenchmarkJSONUnmarshalBaseline is the floor to compare
// BenchmarkParseValidateFormat with: encoding/json decoding the same bytes
// into the same type, with no tolerance, validation or formatting.
func BenchmarkJSONUnmarshalBaseline(b *testing.B) {
	data := readFixture(b, "four-by-four.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var in Input
		if err := json.Unmarshal(data, &in); err != nil {
			b.Fatal(err)
		}
		if len(in.Questions) != 4 {
			b.Fatal("short decode")
		}
	}
}

// displayPlain is typical model text: printable ASCII, the fast path.
var displayPlain = "Which database should we use for this project? PostgreSQL is robust and great for complex queries."

// displayEscapes is the same length of text full of sequences to strip.
var displayEscapes = strings.Repeat("\x1b[1;31mred\x1b[0m \x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\ \u202e日本\t", 4)

func BenchmarkDisplayPlain(b *testing.B) {
	b.SetBytes(int64(len(displayPlain)))
	b.ReportAllocs()
	for b.Loop() {
		if Display(displayPlain) == "" {
			b.Fatal("empty")
		}
	}
}

func BenchmarkDisplayEscapes(b *testing.B) {
	b.SetBytes(int64(len(displayEscapes)))
	b.ReportAllocs()
	for b.Loop() {
		if Display(displayEscapes) == "" {
			b.Fatal("empty")
		}
	}
}
