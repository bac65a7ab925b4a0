package approval

import (
	"fmt"
	"strings"
)

// Rule is one permission rule in Claude Code's syntax: a tool name
// ("mcp__fs__write_file", "Bash"), a server ("mcp__fs", "mcp__fs__*"), or a
// tool with a specifier matched against the call's subject
// ("Bash(git status:*)", "Bash(npm run *)", "Write(src/*)").
type Rule struct {
	// Tool is the tool name, or the server prefix for a server rule.
	Tool string
	// Server is set for a rule naming a whole MCP server.
	Server bool
	// Spec is the specifier between the parentheses; "" when absent.
	Spec string
	// From says where the rule was written, for messages:
	// "--allowedTools", "ci/answers.yaml line 4".
	From string
	// Dir is the folder of the file the rule was written in: a path
	// specifier starting with one '/' is relative to it. "" (a flag) is
	// the session's folder.
	Dir string
	raw string
}

// ParseRule reads one rule; from says where it was written.
func ParseRule(s, from string) (Rule, error) {
	raw := strings.TrimSpace(s)
	r := Rule{From: from, raw: raw}
	name := raw
	if i := strings.IndexByte(raw, '('); i >= 0 {
		if !strings.HasSuffix(raw, ")") {
			return r, fmt.Errorf("rule %q: a specifier ends with ')', as in Bash(git status:*)", clip(raw))
		}
		name, r.Spec = raw[:i], raw[i+1:len(raw)-1]
		if strings.TrimSpace(r.Spec) == "" {
			// Bash() would otherwise read as Bash: every call.
			return r, fmt.Errorf("rule %q has an empty specifier; write %s for every call, or a specifier such as %s(git status:*)", clip(raw), clip(name), clip(name))
		}
		if r.Spec == "*" {
			r.Spec = "" // Bash(*) is Bash
		}
	}
	switch {
	case name == "":
		return r, fmt.Errorf("rule %q names no tool; write a tool name such as mcp__fs__read_file, or mcp__fs for a whole server", clip(raw))
	case strings.ContainsAny(name, " \t()"):
		return r, fmt.Errorf("rule %q: a tool name has no spaces or parentheses; write Tool or Tool(specifier)", clip(raw))
	}
	if strings.HasPrefix(name, "mcp__") {
		rest := strings.TrimPrefix(name, "mcp__")
		server, tool, hasTool := strings.Cut(rest, "__")
		switch {
		case server == "" || strings.Contains(server, "*"):
			return r, fmt.Errorf("rule %q: name the server, as in mcp__fs or mcp__fs__read_file; mcp__* would match every server", clip(raw))
		case !hasTool || tool == "*":
			r.Tool, r.Server = "mcp__"+server, true
		case tool == "":
			return r, fmt.Errorf("rule %q: name the tool after mcp__%s__, or write mcp__%s for the whole server", clip(raw), server, server)
		default:
			r.Tool = name
		}
		if r.Spec != "" {
			return r, fmt.Errorf("rule %q: MCP tools take no specifier; write %s", clip(raw), name)
		}
		return r, nil
	}
	r.Tool = name
	if pathTools[name] && r.Spec != "" {
		if why := badPathPattern(r.Spec); why != "" {
			return r, fmt.Errorf("rule %q: %s", clip(raw), why)
		}
	}
	return r, nil
}

// pathTools are the tools whose specifier is a path pattern.
var pathTools = map[string]bool{"Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "Glob": true, "Grep": true, "LS": true}

// String is the rule as written.
func (r Rule) String() string { return r.raw }

// Describe names the rule and where it was written, for a person or a model.
func (r Rule) Describe() string {
	if r.From == "" {
		return "rule " + r.raw
	}
	return fmt.Sprintf("rule %s (%s)", r.raw, r.From)
}

// matchSpec matches a specifier against a call's subject: "prefix:*" is
// the prefix followed by nothing or a space (a whole word); otherwise '*'
// matches any run of characters, and one trailing " *" also matches
// nothing ("ls *" covers "ls").
func matchSpec(spec, subject string) bool {
	if p, ok := strings.CutSuffix(spec, ":*"); ok && !strings.Contains(p, "*") {
		return subject == p || strings.HasPrefix(subject, p+" ")
	}
	if strings.Count(spec, "*") == 1 && strings.HasSuffix(spec, " *") && subject == strings.TrimSuffix(spec, " *") {
		return true
	}
	return glob(spec, subject)
}

// glob matches pattern, where '*' is any run of characters, against s.
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last) && len(s) >= len(last)
}

// clip makes text safe to show and short enough to quote.
func clip(s string) string { return shorten(s, summaryValueChars) }
