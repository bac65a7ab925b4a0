package agenthost

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// PromptTaken reports whether the host's transcript of s holds prompt,
// so a continue that was cut short (askuser killed after it started the
// host) is not sent a second time: a host without defer writes the prompt
// to its transcript as the user message it continues with. Claude Code
// needs no such check (its continue sends no prompt; Continue reads the
// call's state).
func PromptTaken(ctx context.Context, h Host, s Session, prompt string, env []string) (bool, error) {
	t, err := h.Export(ctx, s, env)
	if err != nil {
		return false, err
	}
	want := jsonText(prompt)
	for _, f := range t.Files {
		if bytes.Contains(f.Data, want) {
			return true, nil
		}
	}
	return false, nil
}

// jsonText is s as a JSON string holds it, without the quotes and with no
// HTML escaping (as the hosts write their transcripts).
func jsonText(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return []byte(strings.TrimSuffix(strings.TrimSuffix(b.String(), "\n"), `"`)[1:])
}
