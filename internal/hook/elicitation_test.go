package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
)

// deploySchema is the form of the probe in CONTRACTS.md, plus a titled
// enum whose values differ from what a person sees.
const deploySchema = `{"type":"object","properties":{
 "env":{"type":"string","title":"Environment","enum":["staging","production"]},
 "regions":{"type":"array","title":"Regions","items":{"type":"string","enum":["eu","us","ap"]}},
 "hero":{"type":"string","title":"Hero","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Wonder Woman"}]},
 "confirm":{"type":"boolean","title":"Confirm"},
 "replicas":{"type":"integer","title":"Replicas"},
 "note":{"type":"string","title":"Note"}},"required":["env"]}`

func elicitEvent(schema string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":"s","transcript_path":"/t","cwd":"/w","prompt_id":"p","hook_event_name":"Elicitation","mcp_server_name":"deploy","message":"Pick a deployment target","mode":"form","requested_schema":%s}`, schema))
}

func action(t *testing.T, r Reply) (string, map[string]any) {
	t.Helper()
	o := out(t, r)
	if o["hookEventName"] != "Elicitation" {
		t.Fatalf("decision %v is not an Elicitation decision", o)
	}
	c, _ := o["content"].(map[string]any)
	return fmt.Sprint(o["action"]), c
}

func TestElicitationAcceptsExactSchemaValues(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Environment").Choose("Staging").Choose("eu", "us").Choose("Wonder Woman").Choose("Yes").Other("3").Other("hi")
	act, content := action(t, Run(t.Context(), elicitEvent(deploySchema), cfgFor(fe)))
	got, _ := json.Marshal(content)
	want := `{"confirm":true,"env":"staging","hero":"hero-2","note":"hi","regions":["eu","us"],"replicas":3}`
	if act != "accept" || string(got) != want {
		t.Errorf("%s %s, want accept %s", act, got, want)
	}
	asked := fe.Asked()[0]
	if asked.Kind != ask.KindElicitation || len(asked.Questions) != 6 || !strings.Contains(asked.Questions[0].Question, "Pick a deployment target") {
		t.Errorf("asked %+v; want the six fields as one elicitation set, opening with the server's message", asked)
	}
}

func TestElicitationNeverAcceptsWhatNoPersonGave(t *testing.T) {
	cases := map[string]struct {
		script func(*asktest.Stub)
		action string
		want   string
	}{
		"policy": {func(s *asktest.Stub) { s.Choose("staging").Skip().Skip().Skip().Skip().Skip().From(ask.SourcePolicy) }, "cancel", "recommended-option policy"},
		"nobody": {func(s *asktest.Stub) { s.Fail(fmt.Errorf("%w: no terminal", ask.ErrNoAnswer)) }, "cancel", "no terminal"},
		"bad num": {func(s *asktest.Stub) {
			s.Choose("staging").Skip().Skip().Skip().Other("three").Skip().From(ask.SourceFile)
		}, "decline", `"three"`},
		"missing": {func(s *asktest.Stub) { s.Skip().Skip().Skip().Skip().Skip().Skip().From(ask.SourceFile) }, "decline", "Environment"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fe := asktest.New(t)
			tc.script(fe.Expect("Environment"))
			r := Run(t.Context(), elicitEvent(deploySchema), cfgFor(fe))
			act, content := action(t, r)
			if act != tc.action || content != nil || !strings.Contains(r.Stderr, tc.want) {
				t.Errorf("%s %v (stderr %q); want %s saying %q", act, content, r.Stderr, tc.action, tc.want)
			}
		})
	}
}

func TestElicitationReasksAPersonWhoseNumberIsNot(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Environment").Choose("production").Skip().Skip().Skip().Other("2.5").Skip()
	fe.Expect("Replicas").Other("2")
	act, content := action(t, Run(t.Context(), elicitEvent(deploySchema), cfgFor(fe)))
	if act != "accept" || content["replicas"] != float64(2) || content["env"] != "production" {
		t.Errorf("%s %v; want accept with the first answers and replicas 2 from a second ask", act, content)
	}
	if again := fe.Asked()[1]; len(again.Questions) != 1 || !strings.Contains(again.Questions[0].Question, "whole number") {
		t.Errorf("the second ask %+v: want only the field that did not fit, saying why", again)
	}
}

func TestElicitationDeclinesWhatItCannotAsk(t *testing.T) {
	for name, ev := range map[string][]byte{
		"url mode":     []byte(`{"hook_event_name":"Elicitation","mcp_server_name":"s","mode":"url","message":"open"}`),
		"object field": elicitEvent(`{"type":"object","properties":{"a":{"type":"object"}}}`),
	} {
		t.Run(name, func(t *testing.T) {
			fe := asktest.New(t) // nothing may be asked
			r := Run(t.Context(), ev, cfgFor(fe))
			if act, _ := action(t, r); act != "decline" || r.Stderr == "" {
				t.Errorf("%s (stderr %q), want decline with a reason", act, r.Stderr)
			}
		})
	}
}

func TestElicitationPanicDeclines(t *testing.T) {
	r := Run(t.Context(), elicitEvent(deploySchema), Config{Ask: func(context.Context, ask.Request) ([]ask.Answer, error) { panic("boom") }})
	if act, _ := action(t, r); act != "decline" || !strings.Contains(r.Stderr, "boom") {
		t.Errorf("%s (stderr %q), want decline naming the panic", act, r.Stderr)
	}
}
