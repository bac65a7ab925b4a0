package approval

import (
	"encoding/json"
	"os"
	"path"
	"strings"
)

// A search (Grep, Glob, LS) reads what is under a folder, its root: the
// call's path, or the session's folder when it names none. The rules see
// it so:
//   - a deny or ask rule that matches the root (or a folder of it) matches
//     the search, as it matches any path: Grep in secrets/ is denied;
//   - a deny or ask rule that may match something under the root makes the
//     search asked: Grep over . with Read(secrets) or Read(*.pem) denied
//     may read the key. A filter narrows what may be read: Glob's pattern
//     and Grep's glob, by the folders they start with (Glob src/**/*.go
//     searches src) and by the names they allow, when no name can match
//     both the filter and the rule. A deny rule that matches a folder
//     covers what is in it, so a filter on names (*.go) never rules out a
//     rule such as Read(*.pem), which a folder keys.pem/ would match;
//     Grep's type (go, js) is not read and rules out nothing;
//   - an allow rule covers the search only when it covers everything under
//     the root (Read(src/**) covers Grep in src; Read(src/*) does not).
//
// Links under the root are not looked for (that would walk the tree): a
// link inside the searched folder to a denied file outside it is read if
// the tool follows links (ripgrep does not, by default).

// searchTools are the tools that read what is under their path.
var searchTools = map[string]bool{"Grep": true, "Glob": true, "LS": true}

// searchScope is what a search may read under its root.
type searchScope struct {
	// filter is the pattern, in segments under the root, that what is
	// read matches ('**' any number of folders); nil is anything.
	filter []string
}

// readSearch reads a search's root and filter into s; s.search stays nil
// when the root is a file (Grep of one file reads that file, as Read
// does).
func (s *subject) readSearch(input json.RawMessage) {
	var in struct {
		Path    string `json:"path"`
		Pattern string `json:"pattern"` // Glob's file pattern (Grep's is a regular expression)
		Glob    string `json:"glob"`    // Grep's
	}
	_ = json.Unmarshal(input, &in)
	filter := in.Glob
	if s.tool == "Glob" {
		filter = in.Pattern
	}
	root := in.Path
	if root == "" {
		root = s.dir
	}
	s.field, s.text = "path", root
	root, rest, ok := narrowSearch(root, filter)
	if !ok || root == "" {
		return // pathOK stays false: the search is unread
	}
	s.text = root
	if s.path, s.pathOK = readPath(root, s.dir); !s.pathOK {
		return
	}
	if fi, err := os.Stat(s.path.physical); err == nil && fi.Mode().IsRegular() {
		return // one file
	}
	s.search = &searchScope{filter: rest}
}

// narrowSearch joins the folders a filter starts with (no pattern
// characters in them) onto the root, and returns the rest of the filter
// in segments: nil when it allows anything, and ok false when it climbs
// out (..) after a pattern, which no segment pattern can follow.
func narrowSearch(root, filter string) (string, []string, bool) {
	if filter == "" || strings.HasPrefix(filter, "!") || strings.HasPrefix(filter, "{") {
		return root, nil, true // nothing, a negation (rg's !x), or alternatives: anything
	}
	switch {
	case strings.HasPrefix(filter, "/"):
		root = "/"
	case filter == "~" || strings.HasPrefix(filter, "~/"):
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return "", nil, false
		}
		root, filter = home, strings.TrimPrefix(filter, "~")
	}
	segs := strings.Split(filter, "/")
	i := 0
	for ; i < len(segs) && !strings.ContainsAny(segs[i], `*?[{\`); i++ {
		if segs[i] != "" && root != "" {
			root = strings.TrimSuffix(root, "/") + "/" + segs[i]
		}
	}
	rest := segs[i:]
	if len(rest) == 0 {
		return root, nil, true
	}
	if strings.Contains(strings.Join(rest, "/"), "{") {
		return root, nil, true // alternatives may hold a /: anything under the root
	}
	var out []string
	for _, seg := range rest {
		switch {
		case seg == "..":
			return "", nil, false
		case seg == "" || seg == ".":
			continue
		case strings.ContainsAny(seg, `[\`) && seg != "**":
			seg = "*" // a class or an escape, in the tool's syntax: any one name
		}
		out = append(out, strings.ToLower(seg))
	}
	if len(out) == 1 {
		out = []string{"**", out[0]} // a name at any depth
	}
	return root, out, true
}

// reaches reports whether a deny or ask rule's pattern may match
// something the search reads under its root, as written, where its links
// lead or where the kernel takes it.
func (pp pathPattern) reaches(p callPath, sc *searchScope) bool {
	lower := make([]string, len(pp.segs), len(pp.segs)+1)
	for i, seg := range pp.segs {
		lower[i] = strings.ToLower(seg)
	}
	rule := append(lower, "**") // a folder it matches covers what is in it
	filter := sc.filter
	if filter == nil {
		filter = []string{"**"}
	}
	for _, try := range [][2]string{{pp.base, p.lexical}, {pp.realBase, p.real}, {pp.realBase, p.physical}} {
		base, root := strings.ToLower(try[0]), strings.ToLower(try[1])
		switch {
		case base == "" && (root == ".." || strings.HasPrefix(root, "../")):
			return true // out of a session's folder that is not known: anywhere
		case (base == "") != !strings.HasPrefix(root, "/"):
			continue // one absolute, one relative: they never match (see within)
		}
		a := append(absSegs(base), rule...)
		b := append(absSegs(root), filter...)
		if segsIntersect(a, b) {
			return true
		}
	}
	return false
}

// absSegs is a path's names, from the root.
func absSegs(p string) []string {
	var out []string
	for _, seg := range strings.Split(p, "/") {
		if seg != "" && seg != "." {
			out = append(out, seg)
		}
	}
	return out
}

// coversTree reports whether an allow rule's pattern matches the root and
// everything under it, as written, where its links lead and where the
// kernel takes it.
func (pp pathPattern) coversTree(p callPath) bool {
	for _, try := range [][2]string{{pp.base, p.lexical}, {pp.realBase, p.real}, {pp.realBase, p.physical}} {
		rel, ok := within(try[0], try[1])
		if !ok {
			return false
		}
		var segs []string
		if rel != "" {
			segs = strings.Split(rel, "/")
		}
		if !treeMatch(pp.segs, segs) {
			return false
		}
	}
	return true
}

// treeMatch reports whether pattern segments match segs and every path
// under them: some prefix of the pattern matches segs, and the rest is
// '**' (one at least, or the prefix ends in one).
func treeMatch(pat, segs []string) bool {
	// m[j]: pat[:i] matches segs[:j], for the current i.
	m := make([]bool, len(segs)+1)
	m[0] = true
	for i := 0; ; i++ {
		if m[len(segs)] && allStars(pat[i:]) && (i < len(pat) || i > 0 && pat[i-1] == "**") {
			return true
		}
		if i == len(pat) {
			return false
		}
		next := make([]bool, len(segs)+1)
		for j := 0; j <= len(segs); j++ {
			if pat[i] == "**" {
				next[j] = m[j] || j > 0 && next[j-1]
			} else if j > 0 && m[j-1] {
				ok, _ := path.Match(pat[i], segs[j-1])
				next[j] = ok
			}
		}
		m = next
	}
}

func allStars(segs []string) bool {
	for _, s := range segs {
		if s != "**" {
			return false
		}
	}
	return true
}

// segsIntersect reports whether some path matches both segment patterns
// ('**' any number of names): a breadth-first walk over pairs of
// positions, each visited once.
func segsIntersect(a, b []string) bool {
	seen := make([]bool, (len(a)+1)*(len(b)+1))
	queue := [][2]int{{0, 0}}
	push := func(i, j int) {
		if k := i*(len(b)+1) + j; !seen[k] {
			seen[k] = true
			queue = append(queue, [2]int{i, j})
		}
	}
	walk := func(i, j int) bool {
		switch {
		case i == len(a) && j == len(b):
			return true
		case i < len(a) && a[i] == "**":
			push(i+1, j)
			if j < len(b) {
				push(i, j+1) // ** takes one more name of b's
			}
		case j < len(b) && b[j] == "**":
			push(i, j+1)
			if i < len(a) {
				push(i+1, j)
			}
		case i < len(a) && j < len(b) && namesMeet(a[i], b[j]):
			push(i+1, j+1)
		}
		return false
	}
	seen[0] = true
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if walk(at[0], at[1]) {
			return true
		}
	}
	return false
}

// namesMeet reports whether one name may match both patterns: exact where
// either is a plain name, and otherwise unless their plain beginnings or
// endings differ (*.go and *.pem never meet). It may say yes where no
// name does, never the reverse.
func namesMeet(a, b string) bool {
	metaA, metaB := strings.ContainsAny(a, `*?[\`), strings.ContainsAny(b, `*?[\`)
	switch {
	case !metaA && !metaB:
		return a == b
	case !metaA:
		ok, err := path.Match(b, a)
		return ok || err != nil
	case !metaB:
		ok, err := path.Match(a, b)
		return ok || err != nil
	}
	pa, pb := plainEnds(a), plainEnds(b)
	return prefixes(pa[0], pb[0]) && suffixes(pa[1], pb[1])
}

// plainEnds is a pattern's plain text before its first pattern character
// and after its last ("" after a class or an escape, which it does not
// read).
func plainEnds(p string) [2]string {
	first := strings.IndexAny(p, `*?[\`)
	if strings.ContainsAny(p, `[\`) {
		return [2]string{p[:first], ""}
	}
	return [2]string{p[:first], p[strings.LastIndexAny(p, "*?")+1:]}
}

func prefixes(a, b string) bool { return strings.HasPrefix(a, b) || strings.HasPrefix(b, a) }
func suffixes(a, b string) bool { return strings.HasSuffix(a, b) || strings.HasSuffix(b, a) }
