package approval

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
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

// allowAdvice is the end of a denial for want of a rule: how to allow
// such calls in file.
func allowAdvice(req Request, file string) string {
	s := req.subject()
	under := " under approvals: allow: in " + file
	switch {
	case s.field == "" || strings.HasPrefix(req.Tool, "mcp__"):
		// Nothing for a specifier to match, or a tool that takes none:
		// the tool's name is the only rule there is.
		return "to allow such calls, add " + clip(req.Tool) + under
	case s.field == "command":
		return commandAdvice(req.Tool, s, under)
	}
	if r, ok := subjectRule(req.Tool, s); ok {
		return "to allow such calls, add " + clip(r) + under
	}
	return "no rule under approvals: allow: names just this call; a person must approve it"
}

// commandAdvice advises a rule for each simple command of a line, from its
// first words.
func commandAdvice(tool string, s subject, under string) string {
	if s.shell.uncovered != "" {
		return "no rule under approvals: allow: can allow it, since " + s.shell.uncovered + "; a person must approve such a call"
	}
	var rules []string
	n := 0
	for _, c := range s.shell.cmds {
		if c.denyOnly {
			continue
		}
		n++
		if r := fmt.Sprintf("%s(%s:*)", tool, c.prefix); !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	if !allows(rules, s) {
		return "no rule under approvals: allow: names just its commands; a person must approve such a call"
	}
	switch {
	case len(rules) == 1:
		return "to allow such calls, add " + clip(rules[0]) + under
	case len(rules) <= maxAdvisedRules:
		for i := range rules {
			rules[i] = clip(rules[i])
		}
		return "to allow such calls, add " + strings.Join(rules[:len(rules)-1], ", ") + " and " + rules[len(rules)-1] + under +
			", a rule for each of its commands"
	}
	return fmt.Sprintf("each of its %d commands needs a rule of its own%s, or a person must approve such a call", n, under)
}

// commandPrefix is the first words of a simple command, as an allow rule
// names them: the command's name, its options, and the first word that
// is not an option (git status, rm -rf build), so the rule covers that
// command on that target with any further arguments. It stops before a
// word whose value is not written out ($X): a rule would name its
// source, not what it runs with.
func commandPrefix(ws []word) string {
	end := 1
	for end < len(ws) && ws[end].literal {
		end++
		if !strings.HasPrefix(ws[end-1].value, "-") {
			break
		}
	}
	return joinWords(ws[:end])
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
