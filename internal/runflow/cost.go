package runflow

import (
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/askuser/askuser/agentloop"
)

// price is a model's list price in US dollars per million tokens: input,
// output, prompt-cache writes (the 5-minute kind, the one a request gets
// unless it asks for an hour) and cache reads. long, when set, is the
// price of a request whose prompt (input, cache reads and cache writes)
// is over longAbove tokens, on every token of that request.
type price struct {
	in, out, cacheWrite, cacheRead float64
	longAbove                      int64
	long                           *price
}

// prices are Anthropic's published list prices for the Claude API (its
// pricing page and model pages), standard tier, no batch discount, no
// regional surcharge. docs/run.md lists them. A model not here is not priced:
// total_cost_usd is left out rather than guessed.
var prices = map[string]price{
	"claude-fable-5-1":  {in: 10, out: 50, cacheWrite: 12.5, cacheRead: 0.25},
	"claude-mythos-5-1": {in: 10, out: 50, cacheWrite: 12.5, cacheRead: 0.25},
	"claude-fable-5":    {in: 10, out: 50, cacheWrite: 12.5, cacheRead: 1},
	"claude-mythos-5":   {in: 10, out: 50, cacheWrite: 12.5, cacheRead: 1},
	"claude-opus-5-5":   {in: 4, out: 20, cacheWrite: 5, cacheRead: 0.2},
	"claude-opus-5":     {in: 5, out: 25, cacheWrite: 6.25, cacheRead: 0.5},
	"claude-opus-4-8":   {in: 5, out: 25, cacheWrite: 6.25, cacheRead: 0.5},
	"claude-opus-4-7":   {in: 5, out: 25, cacheWrite: 6.25, cacheRead: 0.5},
	"claude-opus-4-6":   {in: 5, out: 25, cacheWrite: 6.25, cacheRead: 0.5},
	"claude-opus-4-5":   {in: 5, out: 25, cacheWrite: 6.25, cacheRead: 0.5},
	"claude-opus-4-1":   {in: 15, out: 75, cacheWrite: 18.75, cacheRead: 1.5},
	"claude-opus-4":     {in: 15, out: 75, cacheWrite: 18.75, cacheRead: 1.5},
	"claude-3-opus":     {in: 15, out: 75, cacheWrite: 18.75, cacheRead: 1.5},
	"claude-sonnet-5-5": {in: 2, out: 10, cacheWrite: 2.5, cacheRead: 0.1},
	"claude-sonnet-5":   {in: 2, out: 10, cacheWrite: 2.5, cacheRead: 0.2},
	"claude-sonnet-4-6": {in: 3, out: 15, cacheWrite: 3.75, cacheRead: 0.3},
	"claude-sonnet-4-5": {in: 3, out: 15, cacheWrite: 3.75, cacheRead: 0.3},
	"claude-sonnet-4":   {in: 3, out: 15, cacheWrite: 3.75, cacheRead: 0.3},
	"claude-3-7-sonnet": {in: 3, out: 15, cacheWrite: 3.75, cacheRead: 0.3},
	"claude-3-5-sonnet": {in: 3, out: 15, cacheWrite: 3.75, cacheRead: 0.3},
	"claude-haiku-5-5": {in: 0.1, out: 0.5, cacheWrite: 0.125, cacheRead: 0.01,
		longAbove: 100_000, long: &price{in: 0.5, out: 2.5, cacheWrite: 0.625, cacheRead: 0.05}},
	"claude-haiku-4-5": {in: 1, out: 5, cacheWrite: 1.25, cacheRead: 0.1},
	"claude-3-5-haiku": {in: 0.8, out: 4, cacheWrite: 1, cacheRead: 0.08},
	"claude-3-haiku":   {in: 0.25, out: 1.25, cacheWrite: 0.3, cacheRead: 0.03},
}

// modelSuffix is what a model id may carry after its name: a snapshot
// date, "-latest", or the 1M-context marker. Compiled on first use, like
// every regexp here: package initialisers run at every askuser start.
var modelSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(-\d{8}|-latest|\[1m\])$`) })

// priceOf returns the price of an Anthropic model, by its id with or
// without a date or "-latest".
func priceOf(model string) (price, bool) {
	for {
		if p, ok := prices[model]; ok {
			return p, true
		}
		trimmed := modelSuffix().ReplaceAllString(model, "")
		if trimmed == model {
			return price{}, false
		}
		model = trimmed
	}
}

// cost is what one model call cost.
func (p price) cost(u agentloop.Usage) float64 {
	if p.long != nil && u.InputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens > p.longAbove {
		p = *p.long
	}
	return (float64(u.InputTokens)*p.in + float64(u.OutputTokens)*p.out +
		float64(u.CacheCreationInputTokens)*p.cacheWrite + float64(u.CacheReadInputTokens)*p.cacheRead) / 1e6
}

// costMeter adds up what a run's model calls cost, sub-agents' included,
// each at its own model's price. One call on a model without a price
// makes the total unknown: a partial sum would read as the whole.
type costMeter struct {
	main, sub string // the models of the run and of its sub-agents
	priced    bool   // the provider's prices are in the table

	mu      sync.Mutex
	total   float64
	unknown bool
}

// newCostMeter meters a run on prov, whose sub-agents run on sub (nil:
// prov). Only Anthropic's API is priced.
func newCostMeter(prov, sub agentloop.Provider) *costMeter {
	if sub == nil {
		sub = prov
	}
	return &costMeter{main: prov.Model(), sub: sub.Model(),
		priced: prov.Name() == "anthropic" && sub.Name() == "anthropic"}
}

// add counts one model call, by the main agent or (subAgent) a sub-agent.
func (m *costMeter) add(u agentloop.Usage, subAgent bool) {
	if m == nil {
		return
	}
	model := m.main
	if subAgent {
		model = m.sub
	}
	p, ok := priceOf(strings.ToLower(model))
	m.mu.Lock()
	defer m.mu.Unlock()
	if !ok || !m.priced {
		m.unknown = true
		return
	}
	m.total += p.cost(u)
}

// take returns the total in dollars since the last take (one run's, as
// its usage is), rounded to a millionth of a cent, or nil when it is not
// known.
func (m *costMeter) take() *float64 {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, known := math.Round(m.total*1e8)/1e8, m.priced && !m.unknown
	m.total, m.unknown = 0, false
	if !known {
		return nil
	}
	return &v
}
