package ask

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks, for any input: Parse does not panic; what it accepts
// survives a round trip through encoding/json unchanged and still
// validates; and the tool result for it carries no escape or control
// characters, whatever the model wrote. The seed corpus is every fixture
// under testdata/questions, two inputs in tolerated and hostile forms, and
// any crasher saved under testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"*.json", "invalid/*.json"} {
		files, err := filepath.Glob(filepath.Join(fixtureDir, pattern))
		if err != nil {
			f.Fatal(err)
		}
		if len(files) == 0 {
			f.Fatalf("no fixtures match %s", pattern)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{"questions":"[{\"question\":\"Q?\",\"header\":\"H\",\"options\":[\"A\",\"B\"]}]"}`))
	f.Add([]byte(`{"questions":[{"question":"\u001b]0;t\u0007Q?","header":"\u202eH","options":["A (Recommended)","\u009b2JB"],"multiSelect":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			if _, ok := err.(*ValidationError); !ok {
				t.Fatalf("Parse error is %T, want *ValidationError: %v", err, err)
			}
			return
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("Parse accepted input that Validate rejects: %v", err)
		}
		again, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		in2, err := Parse(again)
		if err != nil {
			t.Fatalf("re-marshalled input does not parse: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(in, in2) {
			t.Fatalf("round trip changed the input:\n%+v\n%+v", in, in2)
		}
		checkResultSafe(t, in)
	})
}

// checkResultSafe formats a recommended-style answer to every question (the
// recommended options, or the first; on a multi-select question also the
// question's own text as free text), and checks the result carries no C0
// but '\n', no DEL, no C1 and no bidi control.
func checkResultSafe(t *testing.T, in Input) {
	answers := make([]Answer, len(in.Questions))
	for i, q := range in.Questions {
		idx := q.Recommended()
		switch {
		case len(idx) == 0:
			idx = []int{0}
		case !q.MultiSelect:
			idx = idx[:1]
		}
		var labels []string
		for _, j := range idx {
			labels = append(labels, q.Options[j].Label)
		}
		custom := ""
		if q.MultiSelect {
			custom = q.Question
		}
		src := SourcePolicy
		if i%2 == 1 {
			src = SourceFile
		}
		a, err := Selection(q, labels, custom, src)
		if err != nil {
			t.Fatalf("Selection of %q in a valid question: %v", labels, err)
		}
		// Model-written text in every field the result prints.
		a.Reason, a.Via = q.Header, q.Options[0].Description
		answers[i] = a
	}
	text := FormatResult(answers)
	if bad := firstUnsafe(text, true); bad >= 0 {
		t.Fatalf("result carries %U:\n%q", bad, text)
	}
	if strings.Count(text, "\n\n") != len(answers)+1 {
		t.Fatalf("model text broke the result's layout:\n%s", text)
	}
}
