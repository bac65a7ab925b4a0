package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/session"
)

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"7d": 7 * 24 * time.Hour, "36h": 36 * time.Hour, "90m": 90 * time.Minute, "1d12h": 36 * time.Hour, "0d30s": 30 * time.Second,
	} {
		if got, err := parseAge("--older-than", in); err != nil || got != want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"7":            `"7" has no unit; add a unit, for example 7d (days) or 7h`,
		"7days":        `"7days" is not an age`,
		"":             `"" is not an age`,
		"0d":           `"0d" is not more than zero`,
		"-3h":          `"-3h" is not more than zero`,
		"d":            `"d" is not an age`,
		"99999999999d": `is too long`,
	} {
		_, err := parseAge("--older-than", in)
		if err == nil || exitCode(err) != ExitUsage || !strings.Contains(err.Error(), msg) {
			t.Errorf("parseAge(%q) err %v (exit %d), want a usage error with %q", in, err, exitCode(err), msg)
		}
	}
}

func TestShortIDs(t *testing.T) {
	all := []session.Summary{{ID: "3f2a9c1d-aaaa"}, {ID: "3f2a9c1d-abbb"}, {ID: "77777777-0000"}, {ID: "short"}}
	got := shortIDs(all[:3], all)
	want := []string{"3f2a9c1d-aa", "3f2a9c1d-ab", "77777777"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("shortIDs = %q, want %q", got, want)
			break
		}
	}
	if got := shortIDs(all[3:], all); got[0] != "short" {
		t.Errorf("a short id was cut to %q", got[0])
	}
}

func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s ago", 45 * time.Second: "45s ago", 3 * time.Minute: "3m ago", 5*time.Hour + 59*time.Minute: "5h ago",
		47 * time.Hour: "47h ago", 80 * time.Hour: "3d ago",
	} {
		if got := ago(d); got != want {
			t.Errorf("ago(%v) = %q, want %q", d, got, want)
		}
	}
}

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

func TestTail(t *testing.T) {
	if got := tail("short", 10, 3); got != "short" {
		t.Errorf("tail kept %q", got)
	}
	if got := tail("abcdefghij", 4, 3); got != "…ghij" {
		t.Errorf("tail by characters = %q", got)
	}
	if got := tail("1\n2\n3\n4\n", 100, 2); got != "…3\n4" {
		t.Errorf("tail by lines = %q", got)
	}
}

// With a team store, "here" is this directory of this machine: another
// machine's session in a directory of the same name is not here, and is
// listed under its machine's name.
func TestSessionsHereIsThisMachine(t *testing.T) {
	here := t.TempDir()
	mine := session.Summary{Cwd: here, Machine: "laptop"}
	theirs := session.Summary{Cwd: here, Machine: "build-7"}
	older := session.Summary{Cwd: here} // recorded no machine: this one's
	if !isHere(mine, here, "laptop") || isHere(theirs, here, "laptop") || !isHere(older, here, "laptop") {
		t.Errorf("isHere: mine %v, theirs %v, older %v", isHere(mine, here, "laptop"), isHere(theirs, here, "laptop"), isHere(older, here, "laptop"))
	}
	if got := showDir(mine, here, "laptop"); got != "." {
		t.Errorf("this machine's session here shows as %q", got)
	}
	if got := showDir(theirs, here, "laptop"); got != "build-7:"+clipLeft(here, 30) {
		t.Errorf("another machine's session shows as %q", got)
	}
}
