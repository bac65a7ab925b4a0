package approval

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/askuser/askuser/internal/approval/shellread"
)

// A denial for want of a rule says how to allow such calls. The advice
// names the narrowest rule that allows the call, never a bare tool name
// that would allow every call of it (Bash alone runs any command): a
// command's first words (Bash(git status:*)), a path (Write(//src/x.go)),
// a URL's host (WebFetch(domain:example.com)). Every rule advised is read
// back and matched against the call before it is said, so the advice
// always works as written; when no rule can be written that allows the
// call (a line with a command substitution, a path through a link), the
// advice says a person must approve it.

// maxAdvisedRules is how many rules a line of several commands is advised
// by name; past it, the advice says each command needs its own.
const maxAdvisedRules = 3

// allowAdvice is the end of a denial for want of a rule: how a person
// may allow such calls in file, whose rules are p. It names only what
// p's allow rules do not cover already, and never a rule a person would
// not write with their eyes open (advice_unadvised.go); it is addressed
// to the person, and tells the model not to change the file itself.
func allowAdvice(req Request, file string, p Policy) string {
	s := req.subject()
	if r, hit := s.touched(p.Ask); hit {
		return r.Describe() + " has such calls asked whatever allows them, so a person must approve each"
	}
	switch {
	case s.field == "" || strings.HasPrefix(req.Tool, "mcp__"):
		// Nothing for a specifier to match, or a tool that takes none:
		// the tool's name is the only rule there is.
		return advise(clip(req.Tool), file)
	case s.field == "command":
		return commandAdvice(req.Tool, s, file, p.Allow)
	}
	if s.pathOK {
		why := unadvisedPath(s.path.lexical, s.dir)
		if why == "" {
			why = unadvisedPath(s.path.real, s.dir)
		}
		if why != "" {
			return "no rule is advised for it, since " + why + "; a person must approve such a call"
		}
	}
	if r, ok := subjectRule(req.Tool, s); ok {
		return advise(clip(r), file)
	}
	return "no rule under approvals: allow: names just this call; a person must approve it"
}

// advise is the advice to add rules, for the person: the model may relay
// it, and must not act on it itself.
func advise(rules, file string) string {
	return "if the user wants such calls run without asking, they may add " + rules + " under approvals: allow: in " + file +
		"; do not change that file yourself"
}

// adviseEach is advise for a rule per command of a line.
func adviseEach(rules, file string) string {
	return "if the user wants such calls run without asking, they may add " + rules + " under approvals: allow: in " + file +
		", a rule for each of its commands; do not change that file yourself"
}

// commandAdvice advises a rule for each simple command of a line that
// the allow rules do not cover, from its first words; none when one of
// them is a command no rule is advised for.
func commandAdvice(tool string, s subject, file string, allow []Rule) string {
	if s.shell.Uncovered() != "" {
		return "no rule under approvals: allow: can allow it, since " + s.shell.Uncovered() + "; a person must approve such a call"
	}
	var rules []string
	n := 0
	for _, c := range s.shell.Cmds() {
		if c.DenyOnly() || cmdCovered(tool, c, allow) {
			continue
		}
		if why := unadvised(c.Prefix()); why != "" {
			return clip(c.Prefix()) + " needs a person's approval each time: no rule is advised for it, since " + why
		}
		n++
		if r := fmt.Sprintf("%s(%s:*)", tool, c.Prefix()); !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 || !allows(append(ruleTexts(allow, tool), rules...), s) {
		return "no rule under approvals: allow: names just its commands; a person must approve such a call"
	}
	switch {
	case len(rules) == 1:
		return advise(clip(rules[0]), file)
	case len(rules) <= maxAdvisedRules:
		for i := range rules {
			rules[i] = clip(rules[i])
		}
		return adviseEach(strings.Join(rules[:len(rules)-1], ", ")+" and "+rules[len(rules)-1], file)
	}
	return fmt.Sprintf("each of its %d commands no rule allows needs a rule of its own under approvals: allow: in %s, or a person must approve such a call", n, file)
}

// cmdCovered reports whether an allow rule of tool covers command c.
func cmdCovered(tool string, c shellread.Cmd, allow []Rule) bool {
	_, ok := shellCovered(slices.DeleteFunc(slices.Clone(allow), func(r Rule) bool { return !r.names(tool) || r.Spec == "" }),
		shellread.LineOf(c))
	return ok
}

// ruleTexts are the texts of the rules of tool, as a person wrote them.
func ruleTexts(rules []Rule, tool string) []string {
	var out []string
	for _, r := range rules {
		if r.names(tool) {
			out = append(out, r.raw)
		}
	}
	return out
}

// subjectRule is the rule that names a call's path or URL.
func subjectRule(tool string, s subject) (string, bool) {
	var spec string
	switch s.field {
	case "url":
		host, ok := urlHost(s.text)
		if !ok {
			return "", false
		}
		spec = "domain:" + host
	default:
		if !s.pathOK {
			return "", false
		}
		spec = pathSpec(s.path.lexical)
		if s.search != nil {
			spec = strings.TrimSuffix(spec, "/") + "/**" // all it searches
		}
	}
	r := tool + "(" + spec + ")"
	return r, allows([]string{r}, s)
}

// pathSpec writes a path as a rule's specifier that matches it alone: from
// the root (//) when it is absolute, else from the session's folder (./),
// with the pattern characters in its names escaped.
func pathSpec(p string) string {
	segs := strings.Split(filepath.ToSlash(p), "/")
	for i, seg := range segs {
		var b strings.Builder
		for _, r := range seg {
			if strings.ContainsRune(`*?[\`, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		segs[i] = b.String()
	}
	spec := strings.Join(segs, "/")
	if strings.HasPrefix(spec, "/") {
		return "/" + spec
	}
	return "./" + spec
}

// allows reports whether the rules, read back as a person would write
// them, allow the call together.
func allows(texts []string, s subject) bool {
	rules := make([]Rule, 0, len(texts))
	for _, t := range texts {
		r, err := ParseRule(t, "")
		if err != nil {
			return false
		}
		rules = append(rules, r)
	}
	_, ok := s.covered(rules)
	return ok
}

// urlHost is a URL's host as domain: rules match it, or false when the URL
// has none.
func urlHost(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", false
	}
	return strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")), true
}
