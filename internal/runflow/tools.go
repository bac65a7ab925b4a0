package runflow

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// toolFlags are the flags that give a run its tools and say which may run
// without asking; run and resume share them. Names and rule syntax are
// Claude Code's.
func toolFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "mcp-config", Category: cmdutil.CatTools, Usage: "MCP servers to use as tools: a `FILE` or inline JSON in Claude Code's format, {\"mcpServers\":{\"NAME\":{\"command\":…,\"args\":[…]} or {\"type\":\"http\",\"url\":…}}}; repeatable"},
		&cli.BoolFlag{Name: "strict-mcp-config", Category: cmdutil.CatTools, Usage: "fail when an MCP server cannot start, instead of going on without its tools"},
		&cli.StringSliceFlag{Name: "allowedTools", Aliases: []string{"allowed-tools"}, Category: cmdutil.CatTools, Usage: "`RULES` for tools that run without asking, comma or space separated: mcp__fs__read_file, mcp__fs (a whole server), Bash(git status:*)"},
		&cli.StringSliceFlag{Name: "disallowedTools", Aliases: []string{"disallowed-tools"}, Category: cmdutil.CatTools, Usage: "`RULES` for tools that never run (they win over --allowedTools)"},
		&cmdutil.ChoiceFlag{Placeholder: "MODE", StringFlag: &cli.StringFlag{Name: "permission-mode", Category: cmdutil.CatTools, Usage: "default (ask about every tool call no rule allows) or bypassPermissions (run every tool no --disallowedTools rule stops)"},
			Choices: []string{"default", "bypassPermissions"}},
	}
}

// toolSpec is what the flags (or, on resume, the session) say about tools.
type toolSpec struct {
	mcpConfig         []string
	strictMCP         bool
	allowed, disallow []string
	mode              string
}

// ToolSettings are the tool flags (toolFlags), as given, each with
// whether it was.
type ToolSettings struct {
	MCPConfig               []string
	StrictMCP               bool
	Allowed, Disallowed     []string
	Mode                    string
	MCPConfigSet, StrictSet bool
	AllowedSet, DisallowSet bool
	ModeSet                 bool
}

func readToolSettings(c *cli.Context) ToolSettings {
	return ToolSettings{MCPConfig: c.StringSlice("mcp-config"), StrictMCP: c.Bool("strict-mcp-config"),
		Allowed: c.StringSlice("allowedTools"), Disallowed: c.StringSlice("disallowedTools"), Mode: c.String("permission-mode"),
		MCPConfigSet: c.IsSet("mcp-config"), StrictSet: c.IsSet("strict-mcp-config"),
		AllowedSet: c.IsSet("allowedTools"), DisallowSet: c.IsSet("disallowedTools"), ModeSet: c.IsSet("permission-mode")}
}

// readToolSpec reads the tool flags; a flag not given falls back to what
// the session recorded.
func readToolSpec(ts ToolSettings, from *session.Meta) toolSpec {
	t := toolSpec{mcpConfig: ts.MCPConfig, strictMCP: ts.StrictMCP,
		allowed: ts.Allowed, disallow: ts.Disallowed, mode: ts.Mode}
	if from != nil {
		if !ts.MCPConfigSet {
			t.mcpConfig = from.MCPConfig
		}
		if !ts.StrictSet {
			t.strictMCP = from.StrictMCP
		}
		if !ts.AllowedSet {
			t.allowed = from.AllowedTools
		}
		if !ts.DisallowSet {
			t.disallow = from.DisallowedTools
		}
		if !ts.ModeSet {
			t.mode = from.PermissionMode
		}
	}
	return t
}

// record writes the spec into a new session's meta, with config files made
// absolute so resume finds them from any directory.
func (t toolSpec) record(m *session.Meta) {
	for _, s := range t.mcpConfig {
		if !strings.HasPrefix(strings.TrimSpace(s), "{") {
			if abs, err := filepath.Abs(s); err == nil {
				s = abs
			}
		}
		m.MCPConfig = append(m.MCPConfig, s)
	}
	m.StrictMCP, m.AllowedTools, m.DisallowedTools, m.PermissionMode = t.strictMCP, t.allowed, t.disallow, t.mode
}

// policy builds the approval policy from the rules and the mode, plus the
// rules an answers file holds (fileRules).
func (t toolSpec) policy(fileRules *approval.Policy) (*approval.Policy, error) {
	p := &approval.Policy{}
	var err error
	if p.Mode, err = approval.ParseMode("--permission-mode", t.mode); err != nil {
		return nil, cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	for _, list := range t.allowed {
		rules, err := approval.ParseRules(list, "--allowedTools")
		if err != nil {
			return nil, cmdutil.WithCode(cmdutil.ExitUsage, err)
		}
		p.Allow = append(p.Allow, rules...)
	}
	for _, list := range t.disallow {
		rules, err := approval.ParseRules(list, "--disallowedTools")
		if err != nil {
			return nil, cmdutil.WithCode(cmdutil.ExitUsage, err)
		}
		p.Deny = append(p.Deny, rules...)
	}
	if fileRules != nil {
		p.Allow = append(p.Allow, fileRules.Allow...)
		p.Ask = append(p.Ask, fileRules.Ask...)
		p.Deny = append(p.Deny, fileRules.Deny...)
	}
	return p, nil
}

// sessionSideDir is the directory beside a session's journal for what the
// session writes besides it (MCP servers' logs, a background run's
// output): made if need be, and refused if it is a link.
func sessionSideDir(store *session.Store, id session.ID) (string, error) {
	dir := store.SideDir(id)
	if err := statefile.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	return dir, nil
}
