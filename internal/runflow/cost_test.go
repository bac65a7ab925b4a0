package runflow

import (
	"context"
	"testing"

	"github.com/askuser/askuser/agentloop"
)

// fakeProv is a provider that only has a name and a model, for pricing.
type fakeProv struct{ name, model string }

func (p fakeProv) Name() string  { return p.name }
func (p fakeProv) Model() string { return p.model }
func (p fakeProv) Complete(ctx context.Context, req agentloop.Request, onText func(string)) (agentloop.Response, error) {
	return agentloop.Response{}, nil
}

func TestCost(t *testing.T) {
	u := agentloop.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheCreationInputTokens: 200_000, CacheReadInputTokens: 2_000_000}
	for model, want := range map[string]float64{
		// 1M×$2 + 0.1M×$10 + 0.2M×$2.50 + 2M×$0.10
		"claude-sonnet-5-5": 2 + 1 + 0.5 + 0.2,
		// a dated snapshot is its model
		"claude-opus-4-1-20250805": 15 + 7.5 + 3.75 + 3,
		"claude-3-5-haiku-latest":  0.8 + 0.4 + 0.2 + 0.16,
		// Haiku 5.5 over 100,000 prompt tokens: the long-prompt price on every token
		"claude-haiku-5-5": 0.5 + 0.25 + 0.125 + 0.1,
	} {
		m := newCostMeter(fakeProv{"anthropic", model}, nil)
		m.add(u, false)
		got := m.take()
		if got == nil || *got != want {
			t.Errorf("%s: cost %v, want %v", model, got, want)
		}
		if again := m.take(); again == nil || *again != 0 {
			t.Errorf("%s: a second take gave %v, want 0 (one run's cost each)", model, again)
		}
	}
	short := newCostMeter(fakeProv{"anthropic", "claude-haiku-5-5"}, nil)
	short.add(agentloop.Usage{InputTokens: 50_000, OutputTokens: 10_000}, false)
	if got := short.take(); got == nil || *got != 0.005+0.005 {
		t.Errorf("Haiku 5.5 under 100,000 prompt tokens: %v, want 0.01", got)
	}
	// Unknown models, other providers, or a sub-agent on an unknown model:
	// no cost at all rather than a partial or a made-up one.
	for _, m := range []*costMeter{
		newCostMeter(fakeProv{"anthropic", "claude-unknown-9"}, nil),
		newCostMeter(fakeProv{"openai", "claude-sonnet-5-5"}, nil),
		newCostMeter(fakeProv{"script", "script"}, nil),
		newCostMeter(fakeProv{"anthropic", "claude-sonnet-5-5"}, fakeProv{"anthropic", "my-finetune"}),
	} {
		m.add(u, false)
		m.add(u, true)
		if got := m.take(); got != nil {
			t.Errorf("%s/%s: cost %v, want none", m.main, m.sub, *got)
		}
	}
	var none *costMeter
	none.add(u, false)
	if none.take() != nil {
		t.Error("a nil meter has a cost")
	}
}
