package agentloop_test

// The loop's own cost per turn, measured against the same provider calls
// made without it. Run both in one go:
//
//	go test -run '^$' -bench 'LoopTurn|ProviderCompleteBaseline' ./agentloop/
//
// The ratio of their ns/turn is the loop's overhead over bare model calls
// on loopback (where the model costs almost nothing, so the ratio is an
// upper bound).

import (
	"context"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// benchServer serves n seed sessions in a row: a question, then an end.
func benchServer(b *testing.B, n int) agentloop.Provider {
	turns := make([]fakeprovider.Turn, 0, 2*n)
	for range n {
		turns = append(turns,
			fakeprovider.Turn{Text: "Before I add authentication, I need two decisions from you.", ToolCalls: []fakeprovider.ToolCall{askCall("toolu_auth", authInput)}},
			fakeprovider.Turn{Text: seedFinal})
	}
	srv := fakeprovider.NewAnthropic(turns...)
	b.Cleanup(srv.Close)
	return agentloop.NewAnthropic(agentloop.ProviderConfig{APIKey: "test-key", BaseURL: srv.URL, MaxRetries: -1})
}

// BenchmarkLoopTurn runs the two-turn seed session through the loop, the
// question answered by frontend.Auto.
func BenchmarkLoopTurn(b *testing.B) {
	prov := benchServer(b, b.N)
	l := &agentloop.Loop{Provider: prov, Frontend: frontend.Auto{}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out := l.Run(ctx, agentloop.NewState(), userPrompt("Add authentication to my app"))
		if out.Status != agentloop.StatusSuccess || out.Turns != 2 {
			b.Fatalf("status %s after %d turns: %v", out.Status, out.Turns, out.Err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/turn")
}

// BenchmarkProviderCompleteBaseline makes the same two Complete calls
// directly: the first with the prompt, the second with the reply and the
// tool result the loop would have sent.
func BenchmarkProviderCompleteBaseline(b *testing.B) {
	prov := benchServer(b, b.N)
	ctx := context.Background()
	answers, err := frontend.Auto{}.Ask(ctx, ask.Request{ID: "toolu_auth", Questions: mustParse(b, authInput)})
	if err != nil {
		b.Fatal(err)
	}
	results := agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{
		{Type: agentloop.BlockToolResult, ToolUseID: "toolu_auth", Content: ask.FormatResult(answers)}}}
	prompt := *userPrompt("Add authentication to my app")
	tools := agentloop.DefaultTools().Specs()
	onText := func(string) {}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		first, err := prov.Complete(ctx, agentloop.Request{Messages: []agentloop.Message{prompt}, Tools: tools}, onText)
		if err != nil {
			b.Fatal(err)
		}
		msgs := []agentloop.Message{prompt, first.Message, results}
		if _, err := prov.Complete(ctx, agentloop.Request{Messages: msgs, Tools: tools}, onText); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/turn")
}

func mustParse(b *testing.B, input string) []ask.Question {
	in, err := ask.Parse([]byte(input))
	if err != nil {
		b.Fatal(err)
	}
	return in.Questions
}
