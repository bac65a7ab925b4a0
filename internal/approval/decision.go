package approval

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// Maker says who or what made a decision.
type Maker string

// The makers of a decision.
const (
	ByPerson  Maker = "person"  // a person chose, at the time
	ByProgram Maker = "program" // a program over JSON lines, not confirmed to be a person
	ByFile    Maker = "file"    // an answer in an answers file, written in advance
	ByRule    Maker = "rule"    // a rule a person wrote (a flag, an answers file)
	ByGrant   Maker = "grant"   // "allow for the rest of this session", given earlier
	ByMode    Maker = "mode"    // --permission-mode bypassPermissions
	ByPolicy  Maker = "policy"  // no person approved: the answer came from a policy, or nobody answered
)

// Scope is how far an approval reaches.
type Scope string

// The scopes.
const (
	ScopeOnce    Scope = "once"
	ScopeSession Scope = "session"
)

// Decision is whether a call may run, and who decided.
type Decision struct {
	Allow bool  `json:"allow"`
	Scope Scope `json:"scope,omitempty"`
	By    Maker `json:"by"`
	// Why names the rule, the answer's source or the reason, for a person
	// or a model: "rule mcp__fs__read_file (--allowedTools)".
	Why string `json:"why,omitempty"`
	// Message is what the model is told instead of a result, for a denial:
	// a person's own words, or why the call was denied.
	Message string `json:"message,omitempty"`
}

// Machine reports whether no person made the decision at the time.
func (d Decision) Machine() bool { return d.By != ByPerson }

func makerOf(s ask.Source) Maker {
	switch s {
	case ask.SourcePerson:
		return ByPerson
	case ask.SourceProgram:
		return ByProgram
	case ask.SourceFile:
		return ByFile
	}
	return ByPolicy // the policy, and any source we do not know
}

// Mode is a permission mode, as Claude Code's --permission-mode.
type Mode string

// The modes.
const (
	// ModeDefault asks about every call no rule or grant allows.
	ModeDefault Mode = "default"
	// ModeBypass allows every call no deny or ask rule stops.
	ModeBypass Mode = "bypassPermissions"
)

// ParseMode reads a mode name; flag names the flag for the error.
func ParseMode(flag, s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeDefault, ModeBypass:
		return m, nil
	case "":
		return ModeDefault, nil
	}
	return "", fmt.Errorf("%s: %s is not a permission mode; use default (ask about every tool no rule allows) or bypassPermissions (run every tool no deny rule stops)", flag, ask.Excerpt(s))
}

// Policy is what decides without asking: rules, and a mode.
type Policy struct {
	Allow, Ask, Deny []Rule
	Mode             Mode
}

// Decide returns the decision the rules, the mode and the session's grants
// make, or ok false when a person must be asked. Deny rules win, then ask
// rules, then the bypass mode, allow rules and grants; a command line or
// path the rules could not read in full, or a search whose folder may
// hold what a deny or ask rule matches, is asked when such a rule names
// its tool.
func (p Policy) Decide(req Request, grants Grants) (d Decision, ok bool) {
	s := req.subject()
	if r, hit := s.touched(p.Deny); hit {
		return deniedByRule(req.Tool, r), true
	}
	if _, hit := s.touched(p.Ask); hit {
		return Decision{}, false
	}
	if s.unread(p.Deny, p.Ask) || s.reaches(p.Deny, p.Ask) {
		// A deny or ask rule may have missed what was not read, or what
		// a search reads under its folder.
		return Decision{}, false
	}
	if p.Mode == ModeBypass {
		return Decision{Allow: true, Scope: ScopeOnce, By: ByMode, Why: "--permission-mode bypassPermissions"}, true
	}
	if rs, hit := s.covered(p.Allow); hit {
		return Decision{Allow: true, Scope: ScopeOnce, By: ByRule, Why: describeRules(rs)}, true
	}
	if g, hit := grants[req.Tool]; hit {
		return Decision{Allow: true, Scope: ScopeOnce, By: ByGrant, Why: "a grant for the rest of this session from " + g.Why}, true
	}
	return Decision{}, false
}

// describeRules names the rules that allowed a call.
func describeRules(rs []Rule) string {
	if len(rs) == 1 {
		return rs[0].Describe()
	}
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = strings.TrimPrefix(r.Describe(), "rule ")
	}
	return "rules " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Grants are the session's "allow for the rest of this session" decisions,
// by tool name.
type Grants map[string]Decision

// ParseRules reads a comma- or space-separated list of rules, as
// --allowedTools takes it ("mcp__fs__read_file mcp__fs__list_directory",
// "Bash(git log:*),Bash(git diff:*)"); from names where it came from.
// Commas and spaces inside parentheses belong to the specifier.
func ParseRules(list, from string) ([]Rule, error) {
	var out []Rule
	for _, s := range splitRules(list) {
		r, err := ParseRule(s, from)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func splitRules(list string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for _, c := range list {
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case (c == ',' || c == ' ' || c == '\t' || c == '\n') && depth == 0:
			flush()
			continue
		}
		cur.WriteRune(c)
	}
	flush()
	return out
}
