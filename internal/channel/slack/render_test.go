package slack_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or writes it there with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from what was rendered:\n%s", path, got)
	}
}

func indent(t *testing.T, raw []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return append(out, '\n')
}

// The Block Kit of a four-question set, as Slack received it, and as a
// person reads it: pinned, so a change to what people see is a change to
// these files.
func TestRenderFourQuestions(t *testing.T) {
	rg := newRig(t, rigOptions{})
	qs := []ask.Question{dbQuestion, featuresQuestion,
		{Question: "Which region should it run in?\nThe latency matters more than the price.", Header: "Region",
			Options: []ask.Option{{Label: "eu-north", Description: "Stockholm"}, {Label: "us-east (Recommended)", Description: "Virginia"}}},
		{Question: "Deploy now?", Header: "Deploy", Options: []ask.Option{{Label: "Yes", Description: "Ship it"}, {Label: "No", Description: "Wait for review"}}}}
	rg.ask("", ask.Request{ID: "ask_golden", Questions: qs})
	m := rg.message("Deploy now?")
	golden(t, "four.json", indent(t, m.Blocks))
	golden(t, "four.txt", []byte(m.View()))
}

// An approval shows the tool and its whole input as a code block, cut at
// Slack's limit of 3,000 characters, saying how much is left and linking
// to the inbox page for all of it; its options are the approval's own.
func TestApprovalShowsTheWholeInputCut(t *testing.T) {
	const link = "http://127.0.0.1:4711/s/abc?token=0123456789abcdef"
	rg := newRig(t, rigOptions{link: link})
	script := strings.Repeat("echo 'step' && ", 400) + "rm -rf build/ # <!channel> & ```done```"
	var input strings.Builder
	enc := json.NewEncoder(&input)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]string{"command": script, "description": "Clean and rebuild"})
	req := approval.Request{ID: "toolu_appr", Tool: "Bash", Input: json.RawMessage(input.String())}.Question(true)
	rg.ask("", req)
	m := rg.message("Allow Bash to run?")
	var code string
	for _, b := range blocksOf(t, m) {
		if text, _ := b["text"].(map[string]any); text != nil && strings.HasPrefix(text["text"].(string), "```") {
			code = text["text"].(string)
		}
	}
	if code == "" {
		t.Fatalf("no code block:\n%s", m.View())
	}
	if n := utf8.RuneCountInString(code); n > 3000 || n < 2900 {
		t.Errorf("the code block takes %d characters; it should fill Slack's 3,000 and no more", n)
	}
	if strings.Count(code, "```") != 2 || !strings.HasPrefix(code, "```{\n  \"command\": \"echo 'step' &amp;&amp; echo") {
		t.Errorf("the input is not one whole code block from its start:\n%.300s", code)
	}
	wantNote := "more characters; all of it is on <" + link + "|the inbox page>._"
	if !strings.HasSuffix(code, wantNote) || !strings.Contains(code, "```\n_Cut here: ") {
		t.Errorf("the cut is not marked with the link:\n…%s", code[len(code)-200:])
	}
	view := m.View()
	for _, want := range []string{"( ) Allow — Run this call", "( ) Allow for the rest of this session", "( ) Deny", "Other: instructions:", "*Approval* from askuser"} {
		if !strings.Contains(view, want) {
			t.Errorf("the approval lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "(Recommended)") {
		t.Error("an approval option is marked recommended")
	}
	if strings.Contains(view, "options in full") {
		t.Errorf("an approval's options do not fit Slack's, so they are listed again in full:\n%s", view)
	}
}

// Whatever a model writes, the message stays within Block Kit's limits
// (the fake refuses it as Slack would otherwise), shows nothing as markup
// (<!channel> pings nobody), and keeps "(Recommended)" on a long label.
func TestRenderKeepsSlacksLimits(t *testing.T) {
	rg := newRig(t, rigOptions{})
	long := strings.Repeat("very long & <b>risky</b> ", 200)
	q := ask.Question{Question: "<!channel> " + long, Header: "Huge", MultiSelect: true, Options: []ask.Option{
		{Label: strings.Repeat("L", 120) + " (Recommended)", Description: long},
		{Label: "<@U0ALICE>", Description: "short"}, {Label: "c"}, {Label: "d"}}}
	req := ask.Request{ID: "ask_huge", Questions: []ask.Question{q, q, q, q}, Detail: long + long}
	rg.ask("", req)
	m := rg.message("Huge")
	for _, c := range rg.fake.Calls("chat.postMessage") {
		if c.Error != "" {
			t.Fatalf("Slack would refuse the message: %s", c.Error)
		}
	}
	view := m.View()
	for _, text := range mrkdwnTexts(blocksOf(t, m)) {
		if strings.Contains(text, "<!channel>") || strings.Contains(text, "<@U0ALICE>") || strings.Contains(text, "<b>") {
			t.Errorf("markup from the model reached Slack's mrkdwn unescaped: %.200s", text)
		}
	}
	if !strings.Contains(view, "&lt;!channel&gt;") {
		t.Error("the question's text is not shown")
	}
	if !strings.Contains(m.View(), "LLLL… (Recommended)") {
		t.Errorf("a long recommended label lost its mark:\n%s", m.View())
	}
	if !strings.Contains(view, "more characters are not shown in Slack; askuser serve shows all of it on the session's page._") {
		t.Error("an input cut without a link to the inbox does not say where to read all of it")
	}
	if !strings.Contains(view, "• *"+strings.Repeat("L", 120)+" (Recommended)*") {
		t.Errorf("a label cut in its option is not shown whole beside the question:\n%s", view)
	}
}

// mrkdwnTexts are the texts of a message that Slack reads as markup.
func mrkdwnTexts(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		if x["type"] == "mrkdwn" {
			s, _ := x["text"].(string)
			out = append(out, s)
		}
		for _, e := range x {
			out = append(out, mrkdwnTexts(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, mrkdwnTexts(e)...)
		}
	case []map[string]any:
		for _, e := range x {
			out = append(out, mrkdwnTexts(e)...)
		}
	}
	return out
}
