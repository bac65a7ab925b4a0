package agenthost

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
)

// FinalText is what an agent said last in a run's standard output, for a
// person (a follow-up beside the question in a chat, the inbox): the
// result of Claude Code's json and stream-json output, Codex's last agent
// message of --json, Gemini CLI's response of -o json, OpenCode's text
// parts of --format json, or, in text output, the text itself. "" when
// the output says nothing (Claude Code's text output of a deferred run is
// one empty line).
func FinalText(k Kind, stdout []byte) string {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 {
		return ""
	}
	if trimmed[0] != '{' && trimmed[0] != '[' {
		return string(trimmed) // text output
	}
	switch k {
	case Claude:
		return claudeOutput(stdout).Result
	case Gemini:
		var out struct {
			Response string `json:"response"`
		}
		if json.Unmarshal(trimmed, &out) == nil {
			return out.Response
		}
	}
	return lastEventText(stdout)
}

// lastEventText reads JSON lines of events (Codex --json, OpenCode
// --format json): the text of the last agent message Codex completed, or
// OpenCode's text parts of its last step.
func lastEventText(stdout []byte) string {
	var last []string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
			Part struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"part"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch {
		case ev.Type == "item.completed" && ev.Item.Type == "agent_message":
			last = []string{ev.Item.Text}
		case ev.Type == "step_start":
			last = nil
		case ev.Type == "text" && ev.Part.Text != "":
			last = append(last, ev.Part.Text)
		}
	}
	return strings.TrimSpace(strings.Join(last, "\n"))
}
