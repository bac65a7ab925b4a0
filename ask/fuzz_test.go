package ask

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks, for any input: Parse does not panic; what it rejects
// is answered in a few kilobytes; what it accepts survives a round trip
// through encoding/json unchanged, still validates, has no two labels a
// person could not tell apart and no label that looks like "Other"; and the
// tool result for it carries no escape or control characters, whatever the
// model wrote. The seed corpus is every fixture under testdata/questions,
// inputs in tolerated and hostile forms (hostileSeeds), and any crasher
// saved under testdata/fuzz/FuzzParse.
//
// Run it with a memory limit, so an input that makes Parse allocate without
// bound fails instead of taking the machine down:
//
//	GOMEMLIMIT=512MiB go test -fuzz FuzzParse -fuzztime 5m ./ask/
//	(ulimit -v 4000000; go test -fuzz FuzzParse -fuzztime 5m ./ask/)
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
	for _, seed := range hostileSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			ve, ok := err.(*ValidationError)
			if !ok {
				t.Fatalf("Parse error is %T, want *ValidationError: %v", err, err)
			}
			if n := len(ve.ToolResult()); n > 32<<10 {
				t.Fatalf("the error tool result is %d bytes: %.400s", n, ve.ToolResult())
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
		checkLabelsDistinct(t, in)
		checkResultSafe(t, in)
	})
}

// hostileSeeds are inputs a hostile or broken model sends: huge values,
// deep nesting, NUL, invalid UTF-8, escape sequences, bidi controls and
// look-alikes made with invisible characters.
func hostileSeeds() [][]byte {
	q := func(question, header, labels string) []byte {
		return []byte(`{"questions":[{"question":"` + question + `","header":"` + header + `","options":[` + labels + `]}]}`)
	}
	big := strings.Repeat("H", 1<<20)
	return [][]byte{
		q("Q?", big, `"A","B"`),
		q(big+"?", "H", `"`+big+`","B"`),
		[]byte(`{"questions":` + strings.Repeat("[", 100_000)),
		[]byte(`{"questions":"` + strings.Repeat("[", 10_000) + `"}`),
		[]byte(`{"questions":[` + strings.Repeat(`1,`, 10_000) + `1]}`),
		q("Q\u0000?", "H\u0000", `"A\u0000","B"`),
		[]byte("{\"questions\":[{\"question\":\"Q\xff?\",\"header\":\"H\xc3\x28\",\"options\":[\"A\xff\",\"B\"]}]}"),
		q(`\u001b[2J\u001bcQ?`, `\u001b]52;c;cm0=\u0007H`, `"\u009b31mA","\u009d0;t\u009cB"`),
		q(`Q\u202e?`, `\u2066H\u2069`, `"\u202dA\u202c","B"`),
		q("Q?", "Env", `"Production","Prod\u200buction"`),
		q("Q?", "Env", `"Staging","Other\u200b"`),
		q("Q?", "Env", `"\ufeffA","\u00adA"`),
		q("Q?", "Env", `"👩\u200d💻","👩💻","می\u200cخواهم","میخواهم"`),
		[]byte(`{"questions":[{"question":"Q?","question":"R?","header":"H","options":["A","B"]}]}`),
		[]byte(`{"questions":[{"question":"Q?","header":"H","options":["A","B"],"` + big + `":1}]}`),
		q("Q?", "H", strings.Repeat(`"A",`, 5)+`"B"`),
		[]byte(`{"questions":[` + strings.Repeat(`{"question":"Q?","header":"H","options":["A","B"]},`, 5) + `{}]}`),
	}
}

// checkLabelsDistinct: of an accepted question, no two labels look alike
// and none looks like "Other", once Display has made them what a person
// sees.
func checkLabelsDistinct(t *testing.T, in Input) {
	for _, q := range in.Questions {
		seen := map[string]bool{}
		for _, o := range q.Options {
			k := strings.ToLower(strings.Join(strings.Fields(BareLabel(Display(o.Label))), " "))
			if k == "other" || k == "" || seen[k] {
				t.Fatalf("accepted label %q, shown as %q: empty, Other, or the same as another", o.Label, Display(o.Label))
			}
			seen[k] = true
		}
	}
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
