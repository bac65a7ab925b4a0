package runflow

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// DefaultMaxRetries is --max-retries when not given.
const DefaultMaxRetries = 4

// ProviderFlags are the flags that choose the model and its provider; a
// run has them, and askuser demo, whose model is its own, has not.
func ProviderFlags() []cli.Flag {
	return []cli.Flag{
		&cmdutil.ChoiceFlag{Placeholder: "NAME", StringFlag: &cli.StringFlag{Name: "provider", Category: cmdutil.CatModel,
			Usage: "model provider: anthropic, openai (any OpenAI-compatible server) or script (default: anthropic if ANTHROPIC_API_KEY is set, else openai if OPENAI_API_KEY is set)"},
			Choices: []string{"anthropic", "openai", "script"}},
		&cli.StringFlag{Name: "model", Category: cmdutil.CatModel, Usage: "model `NAME` (default: the provider's default)"},
		&cli.StringFlag{Name: "base-url", Category: cmdutil.CatModel, Usage: "API base `URL`, e.g. http://localhost:11434/v1 for Ollama (env ANTHROPIC_BASE_URL / OPENAI_BASE_URL)"},
		&cli.StringFlag{Name: "api-key", Category: cmdutil.CatModel, Usage: "API `KEY` (default: ANTHROPIC_API_KEY / OPENAI_API_KEY)"},
		&cli.StringFlag{Name: "script", Category: cmdutil.CatModel, Usage: "scripted model `FILE` (YAML); implies --provider script"},
		&cli.IntFlag{Name: "max-retries", Value: DefaultMaxRetries, Category: cmdutil.CatModel, Usage: "retry rate limits, overload, 5xx and network errors `N` times, with backoff"},
		&cli.DurationFlag{Name: "stream-idle-timeout", DefaultText: "90s for anthropic, 5m for openai", Category: cmdutil.CatModel,
			Usage: "a server silent for `DURATION` (no response, or no byte of the stream) counts as a network failure: retried before any text was shown, else an error"},
	}
}

// providerSpec is what the flags, the environment and (on resume) the
// session say about the provider.
type providerSpec struct {
	name, model, baseURL, apiKey, script string
	maxRetries                           int
	// streamIdle is --stream-idle-timeout; 0 when not given (the
	// provider's default).
	streamIdle    time.Duration
	streamIdleSet bool
}

// ProviderSettings are the provider's flags (ProviderFlags), as given.
type ProviderSettings struct {
	Name, Model, BaseURL, APIKey, Script string
	MaxRetries                           int
	// StreamIdle is --stream-idle-timeout, when StreamIdleSet.
	StreamIdle    time.Duration
	StreamIdleSet bool
}

func readProviderSettings(c *cli.Context) ProviderSettings {
	return ProviderSettings{Name: c.String("provider"), Model: c.String("model"), BaseURL: c.String("base-url"),
		APIKey: c.String("api-key"), Script: c.String("script"), MaxRetries: c.Int("max-retries"),
		StreamIdle: c.Duration("stream-idle-timeout"), StreamIdleSet: c.IsSet("stream-idle-timeout")}
}

func readProviderSpec(ps ProviderSettings, from *session.Meta) providerSpec {
	p := providerSpec{name: ps.Name, model: ps.Model, baseURL: ps.BaseURL,
		apiKey: ps.APIKey, script: ps.Script, maxRetries: ps.MaxRetries,
		streamIdle: ps.StreamIdle, streamIdleSet: ps.StreamIdleSet}
	if from != nil {
		if p.name == "" && p.script == "" {
			p.name, p.script = from.Provider, from.Script
			if p.model == "" {
				p.model = from.Model
			}
			if p.baseURL == "" {
				p.baseURL = from.BaseURL
			}
		}
	}
	if p.script != "" && p.name == "" {
		p.name = "script"
	}
	return p
}

// newProvider builds the provider; errors name the variable and the flag
// that would fix them.
func newProvider(ctx context.Context, p providerSpec, f *cmdutil.Factory) (agentloop.Provider, error) {
	// There is no "off": a run must never hang on a dead connection. A
	// model that thinks for long in silence gets a longer limit instead.
	if p.streamIdleSet && p.streamIdle <= 0 {
		return nil, cmdutil.UsageErrorf("--stream-idle-timeout %s: give a positive duration, e.g. 90s or 10m (the limit cannot be turned off)", p.streamIdle)
	}
	name := p.name
	if name == "" {
		switch {
		case f.Getenv("ANTHROPIC_API_KEY") != "" || p.apiKey != "":
			name = "anthropic"
		case f.Getenv("OPENAI_API_KEY") != "":
			name = "openai"
		default:
			return nil, cmdutil.UsageErrorf("no model provider: set ANTHROPIC_API_KEY (or OPENAI_API_KEY), or pass --provider with --api-key; " +
				"for a local OpenAI-compatible server use --provider openai --base-url http://localhost:11434/v1; " +
				"to try askuser with no key at all: askuser demo")
		}
	}
	cfg := agentloop.ProviderConfig{APIKey: p.apiKey, BaseURL: p.baseURL, Model: p.model, MaxRetries: p.maxRetries,
		StreamIdleTimeout: p.streamIdle}
	if p.maxRetries == 0 {
		cfg.MaxRetries = -1 // zero retries asked for explicitly
	}
	switch name {
	case "anthropic":
		if cfg.APIKey == "" {
			cfg.APIKey = f.Getenv("ANTHROPIC_API_KEY")
		}
		if cfg.BaseURL == "" {
			cfg.BaseURL = f.Getenv("ANTHROPIC_BASE_URL")
		}
		if cfg.APIKey == "" {
			return nil, cmdutil.UsageErrorf("--provider anthropic needs an API key: set ANTHROPIC_API_KEY or pass --api-key")
		}
		return agentloop.NewAnthropic(cfg), nil
	case "openai":
		if cfg.APIKey == "" {
			cfg.APIKey = f.Getenv("OPENAI_API_KEY")
		}
		if cfg.BaseURL == "" {
			cfg.BaseURL = f.Getenv("OPENAI_BASE_URL")
		}
		if cfg.APIKey == "" && cfg.BaseURL == "" {
			return nil, cmdutil.UsageErrorf("--provider openai needs an API key: set OPENAI_API_KEY or pass --api-key (a local server given with --base-url needs none)")
		}
		return agentloop.NewOpenAI(cfg), nil
	case "script":
		if p.script == "" {
			// The demo's own script is the one example every install has.
			demo := filepath.Join(f.StateDir(f.Getenv("ASKUSER_STATE_DIR")), "demo", "auth-demo.yaml")
			return nil, cmdutil.UsageErrorf("--provider script needs --script FILE, a YAML file of the model's turns; "+
				"askuser demo writes the one it runs to %s: run it once and start from that file", demo)
		}
		// A named pipe nobody writes to waits no longer than a signal.
		s, err := agentloop.LoadScriptContext(ctx, p.script)
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
		if err != nil {
			return nil, cmdutil.WithCode(cmdutil.ExitUsage, err)
		}
		return s, nil
	}
	return nil, cmdutil.UsageErrorf("--provider: %s is not a provider; use anthropic, openai or script", ask.Excerpt(name))
}

// subProvider is the provider sub-agents run on when --subagent-model
// (model; or the session) names another model; nil means the run's own.
func subProvider(ctx context.Context, f *cmdutil.Factory, model string, spec providerSpec, from *session.Meta) (agentloop.Provider, string, error) {
	if model == "" && from != nil {
		model = from.SubagentModel
	}
	if model == "" {
		return nil, "", nil
	}
	spec.model = model
	p, err := newProvider(ctx, spec, f)
	return p, model, err
}

// providerMeta records the provider in a new session so resume can find it.
func providerMeta(p agentloop.Provider, spec providerSpec) session.Meta {
	m := session.Meta{Provider: p.Name(), Model: p.Model(), BaseURL: spec.baseURL}
	if s, ok := p.(*agentloop.Script); ok {
		m.Script = s.Path()
		if abs, err := filepath.Abs(m.Script); err == nil {
			m.Script = abs
		}
	}
	return m
}

func describeProvider(p agentloop.Provider) string {
	return fmt.Sprintf("%s (%s)", p.Name(), p.Model())
}
