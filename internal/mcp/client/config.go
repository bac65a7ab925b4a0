package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fileread"
)

// ErrBadConfig marks an MCP configuration that cannot be used: unreadable,
// not JSON, or a server described wrongly. The CLI maps it to the "invalid
// input" exit code.
var ErrBadConfig = errors.New("invalid MCP configuration")

// The transports a server may use.
const (
	TransportStdio = "stdio" // a program run by askuser, spoken to on its stdin and stdout
	TransportHTTP  = "http"  // a streamable HTTP endpoint
)

// MaxToolNameChars bounds a tool's full name (mcp__server__tool): the
// OpenAI API takes at most 64 characters, and Anthropic's as many.
const MaxToolNameChars = 64

// ServerConfig is one server of an MCP configuration, in Claude Code's
// format: {"command","args","env"} for stdio, {"type":"http","url",
// "headers"} for streamable HTTP. ${VAR} and ${VAR:-default} in the
// command, args, env values, url and header values are replaced from the
// environment.
type ServerConfig struct {
	// Name is the server's name as written in the configuration.
	Name      string
	Transport string
	Command   string
	Args      []string
	// Env is added to askuser's own environment for the server's process.
	Env     map[string]string
	URL     string
	Headers map[string]string
	// Timeout bounds each tool call ("timeout" in milliseconds, as Claude
	// Code reads it); 0 leaves calls bounded only by the run.
	Timeout time.Duration
	// Source says where the server was defined: "fs.json:3:5" or
	// "--mcp-config #2:1:17".
	Source string
}

// Config is every server of one or more configurations, in the order they
// were given.
type Config struct {
	Servers []ServerConfig
	// Warnings are things ignored that a person may want to know about:
	// keys askuser does not use.
	Warnings []string
}

// ConfigProblem is one thing wrong in a configuration, where it was
// written.
type ConfigProblem struct {
	// Where is "file:line:col" or "--mcp-config #N:line:col".
	Where   string
	Message string
}

func (p ConfigProblem) String() string { return p.Where + ": " + p.Message }

// ConfigError lists every problem found, so a person fixes them in one
// edit. It wraps ErrBadConfig.
type ConfigError struct{ Problems []ConfigProblem }

func (e *ConfigError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Unwrap makes errors.Is(err, ErrBadConfig) true.
func (e *ConfigError) Unwrap() error { return ErrBadConfig }

// ParseConfigs reads each spec, a file path or inline JSON (as Claude
// Code's --mcp-config takes both: a spec starting with "{" is JSON), and
// merges their servers. A server name defined twice, or two names that
// make the same tool names, is an error naming both places.
func ParseConfigs(ctx context.Context, specs []string) (*Config, error) {
	cfg := &Config{}
	var probs []ConfigProblem
	for i, spec := range specs {
		source, data, err := readSpec(ctx, i, spec)
		if err != nil && ctx.Err() != nil {
			return nil, err // a signal: the rest is not read
		}
		if err != nil {
			probs = append(probs, ConfigProblem{Where: source, Message: err.Error()})
			continue
		}
		servers, warns, ps := parseConfig(source, data)
		cfg.Servers = append(cfg.Servers, servers...)
		cfg.Warnings = append(cfg.Warnings, warns...)
		probs = append(probs, ps...)
	}
	probs = append(probs, clashes(cfg.Servers)...)
	if len(probs) > 0 {
		return nil, &ConfigError{Problems: probs}
	}
	return cfg, nil
}

// maxConfigBytes bounds an MCP configuration file, which may be a pipe
// (<(…)): a few KB of JSON, far below this; /dev/zero must not exhaust
// memory.
const maxConfigBytes = 1 << 20

// readSpec returns the spec's text and the name its problems are reported
// under.
func readSpec(ctx context.Context, i int, spec string) (source string, data []byte, err error) {
	if t := strings.TrimSpace(spec); strings.HasPrefix(t, "{") {
		return fmt.Sprintf("--mcp-config #%d", i+1), []byte(spec), nil
	}
	source = spec
	if strings.TrimSpace(spec) == "" {
		return fmt.Sprintf("--mcp-config #%d", i+1), nil, errors.New(`is empty; give a file path or JSON such as {"mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","."]}}}`)
	}
	data, _, err = fileread.ReadContext(ctx, spec, maxConfigBytes, fileread.PipeTimeout)
	switch {
	case err != nil && ctx.Err() != nil:
		return ask.Display(spec), nil, err
	case errors.Is(err, os.ErrNotExist):
		return ask.Display(spec), nil, errors.New("no such file; give the path of an MCP configuration file, or the JSON itself")
	case err != nil:
		return ask.Display(spec), nil, fmt.Errorf("cannot read it: %v", err)
	case len(data) > maxConfigBytes:
		return ask.Display(spec), nil, fmt.Errorf("passes %d KiB; an MCP configuration is a few KB of JSON: is this the right file?", maxConfigBytes>>10)
	}
	return ask.Display(spec), data, nil
}

// clashes finds names defined twice and names whose tool names would be
// the same.
func clashes(servers []ServerConfig) []ConfigProblem {
	var probs []ConfigProblem
	byName := map[string]ServerConfig{}
	byNorm := map[string]ServerConfig{}
	for _, s := range servers {
		if first, dup := byName[s.Name]; dup {
			probs = append(probs, ConfigProblem{Where: s.Source, Message: fmt.Sprintf("server %q is also defined at %s; keep one, or rename one", ask.Display(s.Name), first.Source)})
			continue
		}
		byName[s.Name] = s
		n := NormalizeName(s.Name)
		if first, dup := byNorm[n]; dup {
			probs = append(probs, ConfigProblem{Where: s.Source, Message: fmt.Sprintf("server %q and server %q (at %s) both give tools named mcp__%s__…; rename one",
				ask.Display(s.Name), ask.Display(first.Name), first.Source, n)})
			continue
		}
		byNorm[n] = s
	}
	return probs
}

// NormalizeName is the name of a server or a tool as it appears in a tool
// name, as Claude Code writes it: every character outside [a-zA-Z0-9_-]
// becomes "_". So "my.server" gives mcp__my_server__….
func NormalizeName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, name)
}

// ToolName is the name a server's tool is offered to a model under:
// mcp__<server>__<tool>, both normalised.
func ToolName(server, tool string) string {
	return "mcp__" + NormalizeName(server) + "__" + NormalizeName(tool)
}

// checkName reports what is wrong with a server name, or "". Claude Code
// splits a tool name at "__", and a rule such as mcp__fs matches every
// tool named mcp__fs__…: a server named "fs__x" or "fs_" would hand its
// tools to rules written for "fs", so such names are refused.
func checkName(name string) string {
	n := NormalizeName(name)
	switch {
	case strings.TrimSpace(name) == "":
		return "a server needs a name"
	case strings.Contains(n, "__"):
		return fmt.Sprintf("server name %q holds \"__\" (after replacing characters outside a-z, A-Z, 0-9, _ and - with _), which would make its tool names ambiguous (rules such as mcp__%s match by that prefix); rename it", ask.Display(name), strings.SplitN(n, "__", 2)[0])
	case strings.HasSuffix(n, "_"):
		return fmt.Sprintf("server name %q ends with \"_\" (after normalising), which would make its tool names ambiguous; rename it", ask.Display(name))
	case len("mcp__"+n+"__")+1 > MaxToolNameChars:
		return fmt.Sprintf("server name %q is too long: its tool names would pass the %d characters a model API takes; shorten it", ask.Display(name), MaxToolNameChars)
	}
	return ""
}
