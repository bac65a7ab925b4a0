package approval

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/askuser/askuser/internal/approval/shellread"
)

// subject is what rules with a specifier are matched against: the call's
// command line, path or URL, read once per decision.
type subject struct {
	tool  string
	field string // the input field it came from; "" when the input has none
	text  string
	shell shellread.Line
	path  callPath
	// pathOK is false when the path cannot be read (empty, a NUL).
	pathOK bool
	// search is set when the call reads what is under its path, a
	// folder (pathsearch.go).
	search *searchScope
	dir    string
	// realDirs memoizes where the links of the rules' folders lead: every
	// path rule of a folder would otherwise read the file system again
	// for the same folder, within one decision.
	realDirs map[string]string
}

// subjectFields are the input fields a rule's specifier is matched
// against, in order: the first one present, as a string, is the subject.
var subjectFields = []string{"command", "file_path", "notebook_path", "path", "url"}

func (r Request) subject() subject {
	s := subject{tool: r.Tool, dir: r.Dir}
	if searchTools[r.Tool] {
		s.realDirs = map[string]string{}
		s.readSearch(r.Input)
		return s
	}
	s.field, s.text = subjectField(r.Input)
	switch s.field {
	case "command":
		s.shell = shellread.Read(s.text)
	case "file_path", "notebook_path", "path":
		s.path, s.pathOK = readPath(s.text, r.Dir)
		s.realDirs = map[string]string{}
	}
	return s
}

// subjectField returns the first subject field of a call's input, and its
// text; "" when there is none.
func subjectField(input json.RawMessage) (field, text string) {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return "", ""
	}
	for _, f := range subjectFields {
		var v string
		if raw, ok := in[f]; ok && json.Unmarshal(raw, &v) == nil {
			return f, v
		}
	}
	return "", ""
}

// Tools whose rules stand for a family, as in Claude Code: an Edit rule
// applies to every built-in tool that changes files, a Read rule to those
// that read them.
var toolFamilies = map[string][]string{
	"Edit": {"Edit", "MultiEdit", "Write", "NotebookEdit"},
	"Read": {"Read", "Glob", "Grep", "LS", "NotebookRead"},
}

// names reports whether the rule is about the call's tool.
func (r Rule) names(tool string) bool {
	switch {
	case r.Server:
		return tool == r.Tool || strings.HasPrefix(tool, r.Tool+"__")
	case tool == r.Tool:
		return true
	}
	for _, t := range toolFamilies[r.Tool] {
		if t == tool {
			return true
		}
	}
	return false
}

// touched returns the first rule that matches anything the call does:
// the reading deny and ask rules use.
func (s subject) touched(rules []Rule) (Rule, bool) {
	for _, r := range rules {
		if r.names(s.tool) && (r.Spec == "" || r.touches(s)) {
			return r, true
		}
	}
	return Rule{}, false
}

// unread reports whether a deny or ask rule with a specifier names the
// call's tool while its subject was not read in full: a command line the
// reader stopped short of or that runs code it cannot see (shellread.Line's
// partial), a guess at what an unknown command runs that the rule
// matches, or a path it could not read (no home folder for ~, a NUL, a
// loop of links) though the host may. What was not read could be what
// the rule denies.
func (s subject) unread(lists ...[]Rule) bool {
	switch s.field {
	case "command":
	case "file_path", "notebook_path", "path":
		if s.pathOK {
			return false
		}
	default:
		return false
	}
	for _, rules := range lists {
		for _, r := range rules {
			if r.Spec == "" || !r.names(s.tool) {
				continue
			}
			if s.field != "command" || s.shell.Partial() != "" || guessTouches(r.Spec, s.shell) {
				return true
			}
		}
	}
	return false
}

func (r Rule) touches(s subject) bool {
	switch s.field {
	case "":
		return false
	case "command":
		return shellTouches(r.Spec, s)
	case "url":
		return matchURL(r.Spec, s.text)
	}
	pp, ok := s.pattern(r)
	return ok && pp.touches(s.path)
}

// covered returns the allow rules that together cover everything the call
// does, or false: a rule without a specifier covers every call of its
// tool; a command line needs every command it runs allowed.
func (s subject) covered(rules []Rule) ([]Rule, bool) {
	var tool []Rule
	for _, r := range rules {
		if r.names(s.tool) {
			if r.Spec == "" {
				return []Rule{r}, true
			}
			tool = append(tool, r)
		}
	}
	switch s.field {
	case "":
		return nil, false
	case "command":
		return shellCovered(tool, s.shell)
	}
	for _, r := range tool {
		if r.covers(s) {
			return []Rule{r}, true
		}
	}
	return nil, false
}

func (r Rule) covers(s subject) bool {
	if s.field == "url" {
		return matchURL(r.Spec, s.text)
	}
	pp, ok := s.pattern(r)
	if ok && s.search != nil {
		return pp.coversTree(s.path)
	}
	return ok && pp.covers(s.path)
}

// reaches reports whether a deny or ask rule with a specifier names the
// call's tool and may match something its search reads under its root.
func (s subject) reaches(lists ...[]Rule) bool {
	if s.search == nil {
		return false
	}
	for _, rules := range lists {
		for _, r := range rules {
			if r.Spec == "" || !r.names(s.tool) {
				continue
			}
			if pp, ok := s.pattern(r); ok && pp.reaches(s.path, s.search) {
				return true
			}
		}
	}
	return false
}

// pattern resolves a path rule's specifier for the call; false when it,
// or the call's path, cannot be read.
func (s subject) pattern(r Rule) (pathPattern, bool) {
	if !s.pathOK {
		return pathPattern{}, false
	}
	return pathPatternOf(r.Spec, r.Dir, s.dir, s.realDir)
}

// realDir is where a rule's folder leads (resolveLinks), read once per
// decision; the folder as written when its links cannot be followed.
func (s subject) realDir(dir string) string {
	real, ok := s.realDirs[dir]
	if !ok {
		real = realDir(dir)
		s.realDirs[dir] = real
	}
	return real
}

// realDir is where a folder's links lead, or the folder as written when
// they cannot be followed.
func realDir(dir string) string {
	if real, ok := resolveLinks(dir); ok {
		return real
	}
	return dir
}

// shellCovered returns the rules that allow every command of the line.
func shellCovered(rules []Rule, line shellread.Line) ([]Rule, bool) {
	if line.Uncovered() != "" {
		return nil, false
	}
	var used []Rule
	n := 0
	for _, c := range line.Cmds() {
		if c.DenyOnly() {
			continue
		}
		n++
		i := firstMatch(rules, c.Text())
		if i < 0 {
			return nil, false
		}
		if !containsRule(used, rules[i]) {
			used = append(used, rules[i])
		}
	}
	return used, n > 0
}

func firstMatch(rules []Rule, text string) int {
	for i, r := range rules {
		if matchSpec(shellSpec(r.Spec), text) {
			return i
		}
	}
	return -1
}

func containsRule(rules []Rule, r Rule) bool {
	for _, u := range rules {
		if u.raw == r.raw && u.From == r.From {
			return true
		}
	}
	return false
}

// shellTouches reports whether a deny or ask specifier matches anything
// the line runs, or the line as a whole (Bash(curl * | sh)).
func shellTouches(spec string, s subject) bool {
	spec = shellSpec(spec)
	if matchSpec(spec, strings.Join(strings.Fields(s.text), " ")) {
		return true
	}
	for _, c := range s.shell.Cmds() {
		if c.Guess() {
			continue // a guess asks (guessTouches)
		}
		if matchSpec(spec, c.Text()) || (c.Glob() != "" && globNames(c.Glob(), spec)) {
			return true
		}
		for _, t := range c.Seen() {
			if matchSpec(spec, t) {
				return true
			}
		}
	}
	return false
}

// globNames reports whether a command name that is a file-name pattern
// (/bin/r?) could name the command a specifier starts with.
func globNames(glob, spec string) bool {
	fields := strings.Fields(strings.TrimSuffix(spec, ":*"))
	if len(fields) == 0 || strings.Contains(fields[0], "*") {
		return false
	}
	name := fields[0]
	for _, g := range []string{glob, path.Base(glob)} {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
		if ok, _ := path.Match(g, "/usr/bin/"+name); ok {
			return true
		}
	}
	return false
}

// shellSpec writes a specifier's words with single spaces, as command
// texts are.
func shellSpec(spec string) string {
	p, prefix := strings.CutSuffix(spec, ":*")
	p = strings.Join(strings.Fields(p), " ")
	if prefix {
		return p + ":*"
	}
	return p
}

// matchURL matches WebFetch's specifiers: domain:example.com (that host;
// *.example.com its subdomains), else a pattern against the whole URL.
func matchURL(spec, raw string) bool {
	domain, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return matchSpec(spec, raw)
	}
	host, ok := urlHost(raw)
	if !ok {
		return false
	}
	domain = strings.ToLower(domain)
	if sub, ok := strings.CutPrefix(domain, "*."); ok {
		return strings.HasSuffix(host, "."+sub)
	}
	return host == domain
}

// guessTouches reports whether a deny or ask specifier matches a guess
// (shellread reads an unknown command's words as guesses).
func guessTouches(spec string, line shellread.Line) bool {
	spec = shellSpec(spec)
	for _, c := range line.Cmds() {
		if !c.Guess() {
			continue
		}
		if matchSpec(spec, c.Text()) || (c.Glob() != "" && globNames(c.Glob(), spec)) {
			return true
		}
		for _, t := range c.Seen() {
			if matchSpec(spec, t) {
				return true
			}
		}
	}
	return false
}
