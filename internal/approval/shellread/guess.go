package shellread

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command askuser does not know may run its words as a command: a
// runner it has not heard of (cgexec -g cpu:x rm -rf y), a script
// (./run.sh rm -rf y), a tool with a subcommand that runs one (docker
// exec c rm -rf y). Its words cannot be placed, so deny and ask rules see
// them as guesses: the words from each later word that is no option, and
// each word written out that reads as code. A guess a deny or ask rule
// matches makes the line asked, never denied and never allowed, whatever
// the mode. Commands known to run nothing they are given (plainCommands)
// make no guesses, so echo rm -rf x runs under a deny rule for rm; git,
// whose runs askuser reads (git.go), makes none either, so git rm x
// is git's rm.
//
// Behind xargs, which adds words from its input to the command, no guess
// can see those words: a command there that is neither plain nor a shell
// given its code leaves the line not read in full.

// plainCommands run nothing they are given (none has an option that
// runs a command).
var plainCommands = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`echo cat ls pwd cd true false : grep egrep fgrep head tail wc uniq cut tr
		mkdir rmdir touch cp mv ln rm unlink chmod chown chgrp stat du df file basename dirname realpath readlink
		date sleep which type whereis whatis help diff cmp comm tee seq yes id whoami groups uname hostname mktemp
		md5sum sha1sum sha256sum sha512sum b2sum base64 base32 od hexdump xxd jq nl fold fmt paste join column rev
		tac shuf cksum sum truncate printenv shift return exit break continue shopt umask pushd popd dirs jobs
		kill disown history ps pgrep pkill wait times local set unalias curl gzip gunzip zcat bzip2 xz unxz cmp
		nproc free uptime tput clear sync lsof tree`) {
		plainCommands[name] = true
	}
}

// guess gives deny and ask rules the readings of an unknown command's
// words, as guesses. c is the command as read, its text the words joined.
func (a *shellReader) guess(c Cmd, ws []word, redirs []*syntax.Redirect) {
	if a.guessing || len(ws) < 2 || !ws[0].literal || plainCommands[commandBase(ws[0])] || a.funcs[ws[0].value] != nil {
		return
	}
	a.guessing = true
	defer func() { a.guessing = false }()
	off := len(ws[0].text) + 1
	for j := 1; j < len(ws) && j <= maxReadings; j++ {
		w := ws[j]
		if w.literal && !strings.HasPrefix(w.value, "-") && off <= len(c.text) {
			if k := commandKind(w); k.code != nil || k.wrapper != nil {
				a.simple(ws[j:], redirs)
			} else {
				// The reading shares the command's text: a long line
				// costs no more for it.
				a.addGuess(Cmd{text: c.text[off:], seen: nameForms(w.value, ws[j+1:])})
			}
		}
		if w.literal && strings.ContainsAny(w.value, " \t\n;&|") {
			a.code(w.value)
		}
		off += len(w.text) + 1
	}
}

// addGuess records a guess whose text is shared with the command's.
func (a *shellReader) addGuess(c Cmd) {
	if len(a.line.cmds) >= MaxCmds {
		a.stop("it holds too many commands to read")
		return
	}
	n := 16
	for _, t := range c.seen {
		n += len(t)
	}
	if !a.spend(n) {
		return
	}
	c.guess, c.denyOnly = true, true
	a.line.cmds = append(a.line.cmds, c)
}

// takesAppended reports whether a command behind xargs reads the words
// xargs adds as plain arguments: a plain command, a wrapper (which passes
// them on to its command), a shell given its code (they are its $0, $1…),
// or a function the line defines.
func (a *shellReader) takesAppended(ws []word, k kind) bool {
	base := commandBase(ws[0])
	switch {
	case plainCommands[base], a.funcs[ws[0].value] != nil:
		return true
	case k.wrapper != nil:
		return !k.wrapper.opaque
	case containsString(shells, base):
		o := readShellOptions(ws, base == "fish")
		return o.unknown == "" && o.command && o.operand < len(ws)
	}
	return false
}
