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

// Failed is the decision when deciding itself failed (bad input, a
// frontend that broke, a timeout): a denial that says what went wrong.
// Callers that must answer a host whatever happens (askuser hook, whose
// host runs the tool when the hook fails) use it rather than failing open.
func Failed(tool string, err error) Decision {
	return Decision{By: ByPolicy, Why: "the approval could not be asked: " + ask.Display(err.Error()),
		Message: fmt.Sprintf("Permission to run %s was denied: askuser could not ask for approval (%s).", ask.Display(tool), ask.Display(err.Error()))}
}

// FromAnswers turns the answers to an approval question (Request.Question)
// into a decision. A policy's answer never approves: whatever it picked,
// the call is denied, saying no person approved it.
func FromAnswers(req Request, answers []ask.Answer) Decision {
	tool := ask.Display(req.Tool)
	if len(answers) != 1 {
		return Decision{By: ByPolicy, Why: "no answer", Message: fmt.Sprintf("Permission to run %s was not granted: nobody answered the approval question.", tool)}
	}
	a := answers[0]
	by := makerOf(a.Source)
	why := a.Source.Describe()
	if a.Via != "" {
		why += " (" + ask.Display(a.Via) + ")"
	}
	if by == ByPolicy {
		reason := "the recommended-option policy never approves a tool"
		if a.Reason != "" {
			reason = ask.Display(a.Reason) + "; " + reason
		}
		return Decision{By: ByPolicy, Why: reason, Message: fmt.Sprintf("Permission to run %s was denied: no person approved it (%s). Do not retry it; continue without it, or ask the user.", tool, reason)}
	}
	switch {
	case a.Declined != nil:
		msg := fmt.Sprintf("Permission to run %s was not granted: the user declined to answer the approval question (askuser cancel)", tool)
		if a.Declined.Reason != "" {
			msg += "; their reason: " + ask.CleanDeclineReason(a.Declined.Reason)
		}
		return Decision{By: by, Why: why + ", declined to answer", Message: msg + ". Do not retry it; continue without it, or ask the user."}
	case len(a.Selected) == 1 && a.Selected[0] == LabelAllow:
		return Decision{Allow: true, Scope: ScopeOnce, By: by, Why: why}
	case len(a.Selected) == 1 && a.Selected[0] == LabelAllowSession:
		return Decision{Allow: true, Scope: ScopeSession, By: by, Why: why}
	case a.Custom != "":
		return Decision{By: by, Why: why, Message: fmt.Sprintf("The user did not run %s and said instead: %s", tool, a.Custom)}
	case len(a.Selected) == 1 && a.Selected[0] == LabelDeny:
		return Decision{By: by, Why: why, Message: fmt.Sprintf("The user denied permission to run %s. Do not retry it; continue without it, or ask the user what to do.", tool)}
	}
	if a.Reason != "" {
		return Decision{By: by, Why: ask.Display(a.Reason), Message: fmt.Sprintf("Permission to run %s was not granted: %s. Do not retry it; continue without it, or ask the user.", tool, ask.Display(a.Reason))}
	}
	return Decision{By: by, Why: why, Message: fmt.Sprintf("Permission to run %s was not granted: the approval question was skipped.", tool)}
}

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
// rules, then the bypass mode, allow rules and grants.
func (p Policy) Decide(req Request, grants Grants) (d Decision, ok bool) {
	tool := ask.Display(req.Tool)
	if r, hit := first(p.Deny, req); hit {
		return Decision{By: ByRule, Why: r.Describe(), Message: fmt.Sprintf("Permission to run %s was denied by %s.", tool, r.Describe())}, true
	}
	if _, hit := first(p.Ask, req); hit {
		return Decision{}, false
	}
	if p.Mode == ModeBypass {
		return Decision{Allow: true, Scope: ScopeOnce, By: ByMode, Why: "--permission-mode bypassPermissions"}, true
	}
	if r, hit := first(p.Allow, req); hit {
		return Decision{Allow: true, Scope: ScopeOnce, By: ByRule, Why: r.Describe()}, true
	}
	if g, hit := grants[req.Tool]; hit {
		return Decision{Allow: true, Scope: ScopeOnce, By: ByGrant, Why: "allowed for the rest of this session by " + g.Why}, true
	}
	return Decision{}, false
}

func first(rules []Rule, req Request) (Rule, bool) {
	for _, r := range rules {
		if r.Matches(req) {
			return r, true
		}
	}
	return Rule{}, false
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
