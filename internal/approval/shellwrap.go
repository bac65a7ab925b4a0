package approval

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands that run other commands. The list is what askuser knows; a
// command that runs another in a way it does not know (npx, make, a
// script) is matched as written, so a deny rule does not see through it.

// wrapper describes a command that runs the command written after its
// options.
type wrapper struct {
	// transparent wrappers do not change what runs (nice, timeout): an
	// allow rule need only cover the command after them. Any other wrapper
	// (sudo, xargs) needs a rule of its own as well.
	transparent bool
	// flags are the short options that take no value, valued those that
	// take one; long names the long options, "name=" taking a value. An
	// option not listed leaves the command unread: the line is asked about.
	flags, valued string
	long          []string
	// operands counts the words between the options and the command
	// (timeout's duration).
	operands int
	// assigns allows NAME=value words before the command (env).
	assigns bool
	// opaque wrappers take options askuser does not read (ssh, watch):
	// allow rules never cover them; deny rules look at every word.
	opaque bool
}

var wrappers = map[string]*wrapper{
	"nice":    {transparent: true, flags: "0123456789", valued: "n", long: []string{"adjustment="}},
	"nohup":   {transparent: true},
	"timeout": {transparent: true, flags: "v", valued: "sk", long: []string{"signal=", "kill-after=", "preserve-status", "foreground", "verbose"}, operands: 1},
	"stdbuf":  {transparent: true, valued: "ioe", long: []string{"input=", "output=", "error="}},
	"time":    {transparent: true, flags: "pvq", valued: "f", long: []string{"portability", "verbose", "quiet", "format="}},
	"command": {transparent: true, flags: "pvV"},
	"builtin": {transparent: true},
	"exec":    {transparent: true},
	"env":     {transparent: true, flags: "i0", valued: "u", long: []string{"ignore-environment", "null", "unset="}, assigns: true},
	"sudo": {flags: "AEHknPS", valued: "CDghpRrtTUu", long: []string{"askpass", "preserve-env", "preserve-env=", "set-home", "non-interactive",
		"stdin", "close-from=", "chdir=", "group=", "host=", "prompt=", "chroot=", "role=", "type=", "command-timeout=", "other-user=", "user="}},
	"doas":    {flags: "ns", valued: "uC"},
	"xargs":   {flags: "0rtpx", valued: "IdEaLnPs", long: []string{"null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "max-args=", "max-procs=", "max-lines=", "delimiter=", "arg-file=", "replace=", "eof=", "max-chars="}},
	"busybox": {},
	// zsh's precommand modifiers.
	"noglob":    {transparent: true},
	"nocorrect": {transparent: true},
}

// opaqueRunners run a command (or code) given in words whose options
// askuser does not read.
var opaqueRunners = []string{"ssh", "su", "runuser", "watch", "script", "flock", "chroot", "nsenter", "unshare", "ionice", "setsid",
	"strace", "ltrace", "unbuffer", "taskset", "numactl", "prlimit", "systemd-run", "firejail", "fakeroot", "proot", "parallel",
	"chronic", "caffeinate", "dbus-run-session", "sg", "valgrind", "catchsegv"}

// shells run code from -c or from their input.
var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "csh", "tcsh", "rbash", "posh"}

// kind is what askuser knows of a command name.
type kind struct {
	wrapper *wrapper
	code    func(a *shellReader, ws []word, redirs []*syntax.Redirect)
}

func commandKind(name word) kind {
	if !name.literal {
		return kind{}
	}
	base := commandBase(name)
	switch {
	case nameReaders[base] != nil:
		return kind{code: nameCode}
	case base == "eval":
		return kind{code: evalCode}
	case base == "source" || base == ".":
		return kind{code: sourceCode}
	case base == "trap":
		return kind{code: trapCode}
	case base == "alias" || base == "hash" || base == "enable":
		return kind{code: renameCode}
	case base == "find":
		return kind{code: findExec}
	case slices.Contains(shells, base):
		return kind{code: shellCode}
	}
	if w, ok := wrappers[base]; ok {
		return kind{wrapper: w}
	}
	if slices.Contains(opaqueRunners, base) {
		return kind{wrapper: &wrapper{opaque: true}}
	}
	return kind{}
}

// commandBase is a command's name as askuser knows it: without its
// folder, or zsh's = (=rm runs rm).
func commandBase(name word) string { return strings.TrimPrefix(path.Base(name.value), "=") }

// wrapped reads a wrapper and the command it runs. The wrapper's
// redirections are the command's too: it inherits them (sudo bash
// /dev/stdin <<< 'code' feeds bash the code).
func (a *shellReader) wrapped(c shellCmd, ws []word, redirs []*syntax.Redirect, w *wrapper) {
	name := clip(ws[0].text)
	inner, ok, sets := w.parse(ws)
	if sets {
		a.uncover("it sets a variable for the command (" + name + "), which can change what it runs")
	}
	switch {
	case ok && inner >= len(ws): // nothing to run: env alone prints, nice alone tells
		a.add(c)
	case ok && w.transparent:
		c.denyOnly = true
		a.add(c)
		a.simple(ws[inner:], redirs)
	case ok:
		a.add(c)
		a.simple(ws[inner:], redirs)
	default:
		a.uncover("it runs a command through " + name + " in a way askuser does not read")
		a.add(c)
		a.everyReading(ws, redirs)
	}
}

// parse finds where the command after a wrapper's options starts; ok is
// false when an option is not known. sets reports NAME=value words.
func (w *wrapper) parse(ws []word) (inner int, ok, sets bool) {
	if w.opaque {
		return 0, false, false
	}
	i := 1
	for ; i < len(ws); i++ {
		if !ws[i].literal {
			return 0, false, sets
		}
		v := ws[i].value
		switch {
		case v == "--":
			i++
		case strings.HasPrefix(v, "--"):
			name, _, hasValue := strings.Cut(v[2:], "=")
			switch {
			case slices.Contains(w.long, name) && !hasValue:
			case slices.Contains(w.long, name+"="):
				if !hasValue {
					i++
				}
			default:
				return 0, false, sets
			}
			continue
		case len(v) > 1 && v[0] == '-':
			skip, known := w.shortOptions(v[1:])
			if !known {
				return 0, false, sets
			}
			i += skip
			continue
		case w.assigns && isAssignment(v):
			sets = true
			continue
		}
		break
	}
	return i + w.operands, i+w.operands <= len(ws), sets
}

// shortOptions reads a cluster of short options (-n5, -ik); skip is 1
// when the last takes its value from the next word.
func (w *wrapper) shortOptions(cluster string) (skip int, known bool) {
	for j := 0; j < len(cluster); j++ {
		switch ch := cluster[j]; {
		case strings.IndexByte(w.flags, ch) >= 0:
		case strings.IndexByte(w.valued, ch) >= 0:
			if j == len(cluster)-1 {
				return 1, true
			}
			return 0, true // the value is the rest of the cluster
		default:
			return 0, false
		}
	}
	return 0, true
}

func isAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	return ok && isName(name)
}

// isName reports whether s is a shell variable's name.
func isName(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == ""
}

// Deny and ask rules look at every reading of words askuser cannot place
// exactly; these readings never count for an allow rule.
const maxReadings = 16

// everyReading gives deny and ask rules each command the words could run:
// the words from each later position on, and each written-out argument
// read as code (ssh host 'rm -rf x').
func (a *shellReader) everyReading(ws []word, redirs []*syntax.Redirect) {
	was := a.denyOnly
	a.denyOnly = true
	defer func() { a.denyOnly = was }()
	if len(ws) > maxReadings+1 {
		a.stop("it runs a command through " + clip(ws[0].text) + " with more words than askuser reads")
	}
	for j := 1; j < len(ws) && j <= maxReadings; j++ {
		if ws[j].literal && !strings.HasPrefix(ws[j].value, "-") {
			a.simple(ws[j:], redirs)
		}
		if ws[j].literal && strings.ContainsAny(ws[j].value, " \t\n;&|") {
			a.code(ws[j].value)
			if v := optionValue(ws[j].value); v != "" {
				a.code(v) // env -S 'rm -rf x', --split-string=…
			}
		}
	}
}

// optionValue is the value written in an option's own word: what follows
// = in --name=value, or the first letter in -Xvalue; "" for a word that is
// no option.
func optionValue(v string) string {
	switch {
	case strings.HasPrefix(v, "--"):
		_, value, _ := strings.Cut(v, "=")
		return value
	case len(v) > 2 && v[0] == '-':
		return v[2:]
	}
	return ""
}

// shellCode reads sh, bash and the like. Running a script file (bash
// build.sh) is a command like any other; code from -c or from the input
// (-s, -, /dev/stdin, no script at all) is not covered by any allow rule,
// and deny rules read it where it is written out (bash -c 'rm -rf x', a
// here-document).
func shellCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	if len(ws) > 1 && ws[1].literal && ws[1].value != "" && !strings.ContainsAny(ws[1].value[:1], "-+") {
		a.scriptFile(ws, redirs)
		return
	}
	a.uncover("it runs shell code from a string or from its input (" + clip(ws[0].text) + ")")
	a.writtenCode(ws[1:], redirs)
}

// sourceCode reads source and ., which run a file's code in the shell
// itself: a file named is a command like any other, as bash build.sh is.
func sourceCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	if len(ws) > 1 && ws[1].literal && !strings.HasPrefix(ws[1].value, "-") {
		a.scriptFile(ws, redirs)
		return
	}
	a.uncover("it runs shell code from a file askuser cannot name (" + clip(joinWords(ws[:min(len(ws), 2)])) + ")")
}

// scriptFile reads a shell or source given a script's path, ws[1]: a
// path that names the shell's input rather than a file (bash /dev/stdin
// <<< 'code') is bash -c in disguise, its code read for deny rules where
// it is written out.
func (a *shellReader) scriptFile(ws []word, redirs []*syntax.Redirect) {
	if !streamPath(ws[1].value) {
		return
	}
	a.uncover("it runs shell code from its input (" + clip(ws[0].text+" "+ws[1].text) + ")")
	a.writtenCode(nil, redirs)
}

// streamPath reports whether a script's path may name a stream rather
// than a file: anything in /dev or /proc (/dev/stdin, /dev/fd/3,
// /proc/self/fd/0) and, as a cd earlier in the line may have gone there,
// a relative path that ends in stdin or a descriptor's number, or starts
// with dev/ or proc/.
func streamPath(p string) bool {
	clean := path.Clean(p)
	first, _, _ := strings.Cut(strings.TrimLeft(clean, "/"), "/")
	last := path.Base(clean)
	return first == "dev" || first == "proc" || last == "stdin" || strings.Trim(last, "0123456789") == ""
}

// evalCode reads eval: its words, joined, are code.
func evalCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	a.uncover("it runs a string as shell code (eval)")
	texts := make([]string, 0, len(ws))
	for _, w := range ws[1:] {
		texts = append(texts, w.code)
	}
	a.writtenCode([]word{{code: strings.Join(texts, " ")}}, nil)
}

// trapCode reads trap, whose first word is code run later.
func trapCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	a.uncover("it sets code to run on a signal (trap)")
	a.writtenCode(ws[1:], nil)
}

// renameCode reads the builtins that change what a command's name runs:
// alias (alias ls='rm -rf'), hash -p (hash -p /bin/rm ls) and enable
// (enable -n echo; enable -f lib.so loads a builtin). No allow rule covers
// them; deny and ask rules read an alias's value as code and hash's path
// as the command it now runs, and a builtin loaded from a file is code no
// rule can read.
func renameCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	base := commandBase(ws[0])
	if len(ws) == 1 || base == "hash" && !slices.ContainsFunc(ws[1:], isOption("p")) {
		return // listing what there is, or hash remembering a path
	}
	a.uncover("it changes what a command's name runs (" + clip(ws[0].text) + ")")
	for i := 1; i < len(ws); i++ {
		w, prev := ws[i], ws[i-1]
		switch {
		case !w.literal:
			a.stop("it changes what a command's name runs (" + clip(ws[0].text) + ") to something not written out")
		case base == "alias":
			if _, value, ok := strings.Cut(w.value, "="); ok {
				a.denyCode(value)
			}
		case base == "hash" && isOption("p")(prev):
			a.denyCode(quoted(w.value))
		case base == "enable" && isOption("f")(w):
			a.stop("it loads a builtin from a file (" + clip(joinWords(ws)) + "), code no rule can read")
		}
	}
}

// isOption returns a check that a word is a cluster of short options that
// includes letter (-p, -rp).
func isOption(letter string) func(word) bool {
	return func(w word) bool {
		return w.literal && len(w.value) > 1 && w.value[0] == '-' && w.value[1] != '-' && strings.Contains(w.value[1:], letter)
	}
}

// writtenCode reads, for deny and ask rules, code written out in words
// and in here-documents or here-strings.
func (a *shellReader) writtenCode(args []word, redirs []*syntax.Redirect) {
	was := a.denyOnly
	a.denyOnly = true
	defer func() { a.denyOnly = was }()
	for _, w := range args {
		if w.code != "" {
			a.code(w.code)
		}
	}
	for _, r := range redirs {
		switch {
		case r.Hdoc != nil:
			a.code(source(r.Hdoc))
		case r.Op == syntax.WordHdoc:
			if w := readWord(r.Word); w.literal {
				a.code(w.value)
			}
		}
	}
}

// findExec reads find: the commands after -exec, -execdir, -ok and
// -okdir (up to ; or +) run too, and must be allowed as well. A word not
// written out may be -exec itself ("$_", or ${IFS} splitting one word
// into several), so then no allow rule covers the line.
func findExec(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	for _, w := range ws[1:] {
		if !w.literal {
			a.uncover("find's arguments are not all written out (" + clip(w.text) + "), so askuser cannot tell what its -exec runs")
			break
		}
	}
	for i := 1; i < len(ws); i++ {
		switch ws[i].value {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		end := i + 1
		for end < len(ws) && ws[end].value != ";" && ws[end].value != "+" {
			end++
		}
		if end > i+1 {
			a.simple(ws[i+1:end], redirs) // it inherits find's input
		}
		i = end
	}
}
