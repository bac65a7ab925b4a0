package approval

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Path rules (Read(…), Edit(…), Write(…)) follow Claude Code's: a
// specifier is a .gitignore-style pattern ('*' within one folder, '**'
// across folders, a pattern without '/' matching a name at any depth),
// relative to a folder:
//
//	//abs/path   the file system's root
//	~/path       the home folder
//	/path        the folder of the file the rule was written in (the
//	             session's folder for a flag)
//	path, ./path the session's folder
//
// The call's path is cleaned against the session's folder first, so
// src/../../etc/passwd is /etc/passwd, and a path that leaves the rule's
// folder never matches it. An allow rule covers exactly the paths its
// pattern matches (src/* the files directly in src; src/** or src/ all of
// it); a deny or ask rule that matches a folder also covers what is in
// it, as .gitignore does, and matches in any case (.ENV is .env where the
// file system ignores case); an allow rule matches the case written.
//
// Symbolic links are followed as the kernel follows them (pathlink.go),
// in the call's path and in the rule's folder alike (so /tmp still
// matches on a system where /tmp is a link): whether or not what a link
// names exists, and before .. is applied. An allow rule must cover the
// path as written (cleaned), where its links lead, and where the kernel
// takes it as written (src/lib/../x, where src/lib is a link, is in the
// folder src/lib leads into); a deny or ask rule matches any of them. The
// check reads the file system at that moment; a link made between the
// decision and the tool's run is not seen, which only a sandbox could
// prevent.

// callPath is a call's path as the rules see it.
type callPath struct {
	// lexical is the path cleaned, absolute when it or the session's
	// folder is; relative (and then matched only by relative rules) when
	// the session's folder is not known.
	lexical string
	// real is where the links of lexical lead (lexical when it has none,
	// or is relative).
	real string
	// physical is where the kernel takes the path as written: its links
	// resolved before its .. (real when it has no ..).
	physical string
}

// readPath reads a call's path against the session's folder dir; false
// when it cannot be read (empty, a NUL, ~ with no home folder), or its
// links loop or are too many to follow.
func readPath(p, dir string) (callPath, bool) {
	if p == "" || strings.ContainsRune(p, 0) {
		return callPath{}, false
	}
	if rest, ok := homeRelative(p); ok {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return callPath{}, false
		}
		p = home + string(filepath.Separator) + rest
	}
	if !filepath.IsAbs(p) && dir != "" && filepath.IsAbs(dir) {
		p = dir + string(filepath.Separator) + p // not Join, which cleans: .. is the kernel's to read
	}
	cp := callPath{lexical: filepath.Clean(p)}
	var ok bool
	if cp.real, ok = resolveLinks(cp.lexical); !ok {
		return callPath{}, false
	}
	cp.physical = cp.real
	if hasDotDot(p) && filepath.IsAbs(p) {
		if cp.physical, ok = resolveLinks(p); !ok {
			return callPath{}, false
		}
	}
	return cp, true
}

// hasDotDot reports whether a path names .. anywhere.
func hasDotDot(p string) bool {
	for _, name := range strings.Split(filepath.ToSlash(p), "/") {
		if name == ".." {
			return true
		}
	}
	return false
}

// homeRelative reports whether p starts with ~ (the home folder), and the
// rest.
func homeRelative(p string) (string, bool) {
	if p == "~" {
		return "", true
	}
	rest, ok := strings.CutPrefix(p, "~/")
	return rest, ok
}

// pathPattern is a path rule's specifier, resolved.
type pathPattern struct {
	// base is the folder the pattern is relative to; "" is the session's
	// folder when it is not known. realBase is where its links lead.
	base, realBase string
	segs           []string
}

// pathPatternOf resolves a specifier written in the folder ruleDir for a
// session in dir; realDir is resolveLinks, or a memo of it.
func pathPatternOf(spec, ruleDir, dir string, realDir func(string) string) (pathPattern, bool) {
	var base string
	anchored := true
	switch {
	case strings.HasPrefix(spec, "//"):
		base, spec = "/", spec[2:]
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return pathPattern{}, false
		}
		base, spec = home, strings.TrimPrefix(strings.TrimPrefix(spec, "~"), "/")
	case strings.HasPrefix(spec, "/"):
		base, spec = ruleDir, spec[1:]
		if base == "" {
			base = dir
		}
	case strings.HasPrefix(spec, "./"):
		base, spec = dir, spec[2:]
	default:
		base = dir
		anchored = strings.Contains(strings.TrimSuffix(spec, "/"), "/")
	}
	if folder, ok := strings.CutSuffix(spec, "/"); ok {
		spec = folder + "/**" // a folder: what is in it
	}
	var segs []string
	if !anchored {
		segs = []string{"**"}
	}
	for _, s := range strings.Split(spec, "/") {
		if s != "" && s != "." {
			segs = append(segs, s)
		}
	}
	return pathPattern{base: base, realBase: realDir(base), segs: segs}, true
}

// covers reports whether an allow rule's pattern matches the path as
// written, where its links lead, and where the kernel takes it.
func (pp pathPattern) covers(p callPath) bool {
	return matchIn(pp.base, pp.segs, p.lexical, false) && matchIn(pp.realBase, pp.segs, p.real, false) &&
		(p.physical == p.real || matchIn(pp.realBase, pp.segs, p.physical, false))
}

// touches reports whether a deny or ask rule's pattern matches the path,
// or a folder of it, as written, where its links lead or where the kernel
// takes it, in any case: on
// a file system that ignores case (macOS, Windows) .ENV is .env.
func (pp pathPattern) touches(p callPath) bool {
	lower := make([]string, len(pp.segs))
	for i, s := range pp.segs {
		lower[i] = strings.ToLower(s)
	}
	for _, try := range [][2]string{{pp.base, p.lexical}, {pp.realBase, p.real}, {pp.realBase, p.physical}} {
		if matchIn(try[0], pp.segs, try[1], true) || matchIn(strings.ToLower(try[0]), lower, strings.ToLower(try[1]), true) {
			return true
		}
	}
	return false
}

// matchIn reports whether pattern segments relative to base match p;
// with folders, a folder of p that matches counts too.
func matchIn(base string, pat []string, p string, folders bool) bool {
	rel, ok := within(base, p)
	if !ok {
		return false
	}
	var segs []string
	if rel != "" {
		segs = strings.Split(rel, "/")
	}
	if folders {
		// A folder of p matches when pat matches a prefix of p: what
		// follows is anything.
		pat = append(pat[:len(pat):len(pat)], "**")
	}
	return matchSegs(pat, segs)
}

// within returns p relative to base, and false when p is not inside it.
func within(base, p string) (string, bool) {
	if base == "" {
		if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
			return "", false
		}
		return strings.TrimPrefix(filepath.ToSlash(p), "./"), true
	}
	if !filepath.IsAbs(p) {
		return "", false
	}
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}

// matchSegs matches pattern segments ('**' any number of segments, others
// as path.Match) against path segments, in time proportional to their
// product, whatever the pattern.
func matchSegs(pat, segs []string) bool {
	// next[j]: pat[i+1:] matches segs[j:]; cur[j]: pat[i:] matches segs[j:].
	next := make([]bool, len(segs)+1)
	next[len(segs)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		cur := make([]bool, len(segs)+1)
		for j := len(segs); j >= 0; j-- {
			if pat[i] == "**" {
				cur[j] = next[j] || (j < len(segs) && cur[j+1])
				continue
			}
			if j < len(segs) {
				ok, _ := path.Match(pat[i], segs[j])
				cur[j] = ok && next[j+1]
			}
		}
		next = cur
	}
	return next[0]
}

// badPathPattern says what is wrong with a path specifier, or "".
func badPathPattern(spec string) string {
	for _, s := range strings.Split(spec, "/") {
		if _, err := path.Match(s, ""); err != nil {
			return "the pattern " + clip(s) + " is malformed (an unclosed [ or a trailing \\)"
		}
	}
	return ""
}
