package agenthost

import (
	"fmt"
	"strings"
)

// arity is how many arguments after an option its parser takes.
type arity int

const (
	// none: a switch.
	none arity = iota
	// one: the next argument, whatever it looks like (commander's <x>, clap).
	one
	// optional: the next argument unless it looks like an option
	// (commander's [x], yargs strings).
	optional
	// greedy: the next argument, then every following one that does not
	// look like an option (commander's <x...>, yargs arrays): a prompt
	// written after such an option is taken as one of its values, by the
	// host as by askuser.
	greedy
)

// options maps each option of a program ("--model", "-m") to its arity.
// An option not in the table is read as a switch unless written
// --name=value.
type options map[string]arity

// token is one option, with its values, or one positional argument.
type token struct {
	// name is the option ("--model", "-m"), or "" for a positional.
	name string
	// raw are the arguments the token spans, as given.
	raw []string
	// values are the option's values (an attached --x=v one included).
	values []string
}

func (t token) positional() bool { return t.name == "" }

// looksLikeOption reports whether a parser would read s as an option
// rather than a value.
func looksLikeOption(s string) bool {
	return len(s) > 1 && s[0] == '-'
}

// scan splits args the way the host's own parser does: options with their
// values, positionals, and everything after "--" as positionals (the "--"
// itself is a token named "--").
func scan(args []string, opts options) []token {
	var out []token
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			out = append(out, token{name: "--", raw: []string{a}})
			for _, rest := range args[i+1:] {
				out = append(out, token{raw: []string{rest}})
			}
			return out
		case !looksLikeOption(a):
			out = append(out, token{raw: []string{a}})
			continue
		}
		if name, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			out = append(out, token{name: name, raw: []string{a}, values: []string{value}})
			continue
		}
		name, attached := a, ""
		if _, known := opts[a]; !known && !strings.HasPrefix(a, "--") && len(a) > 2 {
			// -mVALUE: a short option with its value attached.
			if ar, ok := opts[a[:2]]; ok && ar != none {
				name, attached = a[:2], a[2:]
			}
		}
		t := token{name: name, raw: []string{a}}
		if attached != "" {
			t.values = []string{attached}
			out = append(out, t)
			continue
		}
		n := take(args[i+1:], opts[name])
		t.raw = append(t.raw, args[i+1:i+1+n]...)
		t.values = append(t.values, args[i+1:i+1+n]...)
		i += n
		out = append(out, t)
	}
	return out
}

// take counts how many of rest an option of arity ar takes.
func take(rest []string, ar arity) int {
	switch {
	case len(rest) == 0 || ar == none:
		return 0
	case ar == one:
		return 1
	case ar == optional:
		if looksLikeOption(rest[0]) {
			return 0
		}
		return 1
	}
	n := 1
	for n < len(rest) && !looksLikeOption(rest[n]) && rest[n] != "--" {
		n++
	}
	return n
}

// flatten returns the arguments of tokens, in order.
func flatten(tokens []token) []string {
	var out []string
	for _, t := range tokens {
		out = append(out, t.raw...)
	}
	return out
}

// refuse is the error for the first of tokens that refused names (with
// why it cannot be used), or nil: prog is the agent's program, what the
// command that runs it.
func refuse(tokens []token, refused map[string]string, prog, what string) error {
	for _, t := range tokens {
		if why, ok := refused[t.name]; ok {
			return fmt.Errorf("%s: %s %s cannot be used: %s", what, prog, t.name, why)
		}
	}
	return nil
}

// find returns the first token named one of names.
func find(tokens []token, names ...string) (token, bool) {
	for _, t := range tokens {
		for _, n := range names {
			if t.name == n {
				return t, true
			}
		}
	}
	return token{}, false
}

// drop returns tokens without those named one of names and, when
// positionals is set, without positionals (and "--").
func drop(tokens []token, positionals bool, names ...string) []token {
	var out []token
	for _, t := range tokens {
		if positionals && (t.positional() || t.name == "--") {
			continue
		}
		skip := false
		for _, n := range names {
			skip = skip || t.name == n
		}
		if !skip {
			out = append(out, t)
		}
	}
	return out
}

// value returns the option's last value, or "".
func (t token) value() string {
	if len(t.values) == 0 {
		return ""
	}
	return t.values[len(t.values)-1]
}
