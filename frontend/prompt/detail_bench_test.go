package prompt

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// BenchmarkWholeInputFrame draws the whole-input view of an approval to
// write a 1 MB file, as the prompt does at every key and tick: "cached"
// as it is now (the text wrapped once per width), "rewrapped" wrapping it
// again each frame, as before. Compare the two.
func BenchmarkWholeInputFrame(b *testing.B) {
	content := strings.Repeat("A line of a very large file, written by the agent.\n", 20000)
	input, _ := json.Marshal(map[string]string{"path": "big.txt", "content": content})
	req := ask.Request{ID: "big.approval", Kind: ask.KindApproval, Detail: string(input),
		Questions: []ask.Question{{Header: "Approve", Question: "Allow write_file to run?", Options: []ask.Option{{Label: "Allow"}, {Label: "Deny"}}}}}
	for _, mode := range []string{"cached", "rewrapped"} {
		b.Run(mode, func(b *testing.B) {
			s := newSetState(req)
			s.handle(key{kind: kTab})
			s.frame(80, 24, -time.Second) // the view as first drawn
			for b.Loop() {
				if mode == "rewrapped" {
					s.qs[0].detailWrap.lines = nil
				}
				if len(s.frame(80, 24, -time.Second)) == 0 {
					b.Fatal("no frame")
				}
			}
		})
	}
}
