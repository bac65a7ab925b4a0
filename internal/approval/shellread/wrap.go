package shellread

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands that run other commands. The list is what askuser knows; a
// command it does not know, which may run its words as a command (npx, a
// script), is matched as written, and deny and ask rules see its words as
// guesses (guess.go).

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
	// assigns allows NAME=value words before the command (env, sudo).
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
	"sudo": {assigns: true, flags: "AEHknPSis", valued: "CDghpRrtTUu", long: []string{"askpass", "preserve-env", "preserve-env=", "set-home", "non-interactive",
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
	"chronic", "caffeinate", "dbus-run-session", "sg", "valgrind", "catchsegv",
	"chrt", "setpriv", "cgexec", "pkexec", "run0", "bwrap", "torsocks", "proxychains", "proxychains4", "faketime", "rlwrap",
	"xvfb-run", "tini", "dumb-init", "catatonit", "chpst", "setuidgid", "envuidgid", "envdir", "softlimit", "cpulimit", "trickle",
	"nq", "tsp", "sem", "entr", "setarch", "linux32", "linux64", "capsh", "runcon", "sandbox-exec", "arch", "eatmydata", "sshpass",
	"schroot", "systemd-nspawn", "hyperfine", "watchexec", "rush", "mosh"}

// shells run code from -c or from their input.
var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "csh", "tcsh", "rbash", "posh",
	"oksh", "loksh", "lksh", "pdksh", "hush", "osh", "ysh", "elvish", "nu", "xonsh", "rc", "es"}

// stdinShells run a shell when given no command (su, ssh host, nsenter,
// unshare), or run their input's lines (parallel): fed a pipe or a file,
// they may run it as code.
var stdinShells = []string{"su", "runuser", "sg", "newgrp", "chroot", "nsenter", "unshare", "firejail", "schroot",
	"systemd-nspawn", "machinectl", "script", "ssh", "capsh", "toolbox", "distrobox",
	"parallel", "rush"} // and these run each line of their input as a command

// fedShell checks a command that may run a shell reading its input: the
// input must be written out in the line (a here-document, read as code
// for deny rules), or no rule sees what it runs.
func (a *shellReader) fedShell(name string, redirs []*syntax.Redirect) {
	r := lastRedirect(0, redirs)
	switch {
	case r != nil && (r.Hdoc != nil || r.Op == syntax.WordHdoc):
		a.inputCode(0, name, redirs)
	case r != nil || a.piped:
		a.stop("it feeds " + name + " its input, which it may run as shell code no rule sees")
	}
}

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
	case slices.Contains(shells, base) || slices.Contains(shells, strings.TrimRight(base, "0123456789.-")):
		return kind{code: shellCode} // ksh93, bash5.2 too
	case base == "fc" || base == "history":
		return kind{code: historyCode}
	case base == "at" || base == "batch" || base == "crontab":
		return kind{code: scheduledCode}
	case base == "compgen" || base == "complete":
		return kind{code: compgenCode}
	case base == "git":
		return kind{code: gitCode}
	case base == "make" || base == "gmake":
		return kind{code: makeCode}
	case base == "awk" || base == "gawk" || base == "mawk" || base == "nawk":
		return kind{code: awkCode}
	case base == "sed" || base == "gsed":
		return kind{code: sedCode}
	case interpreterName(base) != "":
		return kind{code: interpCode}
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
// /dev/stdin <<< 'code' feeds bash the code). appended is set when the
// words are given more from xargs's input, as the words after xargs are.
func (a *shellReader) wrapped(c Cmd, ws []word, redirs []*syntax.Redirect, w *wrapper, appended bool) {
	name := clip(ws[0].text)
	inner, ok, sets := w.parse(ws)
	if sets {
		a.uncover("it sets a variable for the command (" + name + "), which can change what it runs")
		end := len(ws) // with an option not read, any word may be one
		if ok {
			end = min(inner, len(ws))
		}
		for _, x := range ws[1:max(end, 1)] {
			if n, v, isSet := strings.Cut(x.value, "="); isSet && x.literal && n != "" {
				a.assignment(n, literalWord(v))
			}
		}
	}
	xargs := commandBase(ws[0]) == "xargs"
	switch {
	case xargs && !ok:
		a.stop("it runs xargs with options askuser does not read, so it cannot tell what xargs runs")
	case ok && inner >= len(ws): // nothing to run: env alone prints, nice alone tells
		if appended {
			a.stop("the command " + name + " runs comes from xargs's input, which no rule sees")
		}
	}
	switch {
	case ok && inner >= len(ws):
		a.add(c)
		if base := commandBase(ws[0]); base == "sudo" || base == "doas" {
			a.fedShell(name, redirs) // sudo -s, sudo -i, doas -s: a shell
		}
	case ok:
		c.denyOnly = w.transparent
		a.add(c)
		cmd := ws[inner:]
		if xargs {
			cmd = unplaced(cmd, xargsReplace(ws[1:inner]))
		}
		a.appended = appended || xargs
		a.simple(cmd, redirs)
	default:
		a.uncover("it runs a command through " + name + " in a way askuser does not read")
		if appended {
			a.stop("it runs " + name + " with words xargs takes from its input, which may be the command it runs")
		}
		a.add(c)
		a.everyReading(ws, redirs)
	}
}

// xargsReplace is the text xargs -I (--replace) replaces with words from
// its input, or "".
func xargsReplace(opts []word) string {
	for i, w := range opts {
		switch v := w.value; {
		case strings.HasPrefix(v, "--replace="):
			return strings.TrimPrefix(v, "--replace=")
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.IndexByte(v, 'I') > 0:
			j := strings.IndexByte(v, 'I')
			if j < len(v)-1 {
				return v[j+1:]
			}
			if i+1 < len(opts) {
				return opts[i+1].value
			}
		}
	}
	return ""
}

// unplaced marks the words that hold rep (xargs -I's {}, find -exec's {})
// as not written out: what replaces it comes from xargs's input or the
// file system, and may be a command, an option or code.
func unplaced(ws []word, rep string) []word {
	if rep == "" {
		return ws
	}
	out := slices.Clone(ws)
	for i, w := range out {
		if strings.Contains(w.text, rep) || strings.Contains(w.value, rep) {
			out[i] = word{text: w.text, code: w.code}
		}
	}
	return out
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

// isAssignment reports whether env (or sudo) reads a word as NAME=value:
// any word with = that does not start with it, whatever the name holds
// (env 'BASH_FUNC_ls%%=() { …; }' exports a function to a bash it runs).
func isAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	return ok && name != ""
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
