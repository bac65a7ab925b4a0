package shellread

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands that run code given in their words, beside the shells: make
// (a makefile from its input, --eval, a variable set for its recipes),
// compgen and complete (-C runs a command, -W's words are expanded), and
// mapfile's -C. And what askuser decides for a command it does not know.

// makeCode reads make: a makefile read from its input (-f -,
// /dev/stdin) or written in --eval runs recipes no rule sees (deny and
// ask rules read the recipe lines written out); NAME=value sets a
// variable a recipe may run (CC='rm -rf x'), read as a variable set for
// a command is.
func makeCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		if !w.literal {
			if makeHides(w.text) {
				a.stop("it gives make a word not written out (" + clip(w.text) + "), which may name a makefile, a recipe or a variable a recipe runs")
			}
			continue
		}
		v := w.value
		if v == "--" {
			return // the rest are targets
		}
		name, value, long := makeOption(v)
		if name == "" {
			if n, val, ok := strings.Cut(v, "="); ok && isName(strings.TrimRight(n, "+:?!")) {
				a.uncover("it sets a make variable (" + clip(v) + "), which can change what a recipe runs")
				a.assignment(strings.TrimRight(n, "+:?!"), literalWord(val))
			}
			continue
		}
		if value == nil && makeValued(name) {
			if i+1 >= len(ws) {
				a.stop("it runs make " + clip(v) + " with no value written out: it comes from elsewhere (xargs's input)")
				return
			}
			i++
			value = &ws[i]
		}
		if value != nil && (name == "f" || name == "E") {
			a.makeInput(name, *value, long, redirs)
		}
	}
}

// makeOption reads a word as make's option: its name (one letter, or a
// long name: "f" for --file and --makefile, "E" for --eval) and a value
// written in the word, or "" for a word that is no option.
func makeOption(v string) (name string, value *word, long bool) {
	if l, ok := strings.CutPrefix(v, "--"); ok {
		n, val, hasValue := strings.Cut(l, "=")
		switch n {
		case "file", "makefile":
			n = "f"
		case "eval":
			n = "E"
		}
		if hasValue {
			w := literalWord(val)
			return n, &w, true
		}
		return n, nil, true
	}
	if len(v) < 2 || v[0] != '-' {
		return "", nil, false
	}
	for k := 1; k < len(v); k++ {
		if ch := string(v[k]); makeValued(ch) {
			if k < len(v)-1 {
				w := literalWord(v[k+1:])
				return ch, &w, false
			}
			return ch, nil, false
		}
	}
	return "-", nil, false // flags only
}

// makeValued reports whether make's option takes a value.
func makeValued(name string) bool {
	return strings.Contains(" f E C I o W O directory include-dir old-file assume-old new-file what-if assume-new ", " "+name+" ")
}

// makeHides reports whether a word not written out, given to make, may
// name a makefile or a recipe (-f…, --eval…, or a word that starts with
// an expansion) or set a variable (NAME=$x).
func makeHides(src string) bool {
	switch {
	case strings.HasPrefix(src, "--"):
		return strings.HasPrefix(src, "--file") || strings.HasPrefix(src, "--makefile") || strings.HasPrefix(src, "--eval")
	case strings.HasPrefix(src, "-"):
		head, _, _ := strings.Cut(src, "$")
		return strings.ContainsAny(head, "fE")
	}
	i := strings.IndexAny(src, "$`\"'")
	return i <= 0 || strings.Contains(src[:i], "=")
}

// makeInput reads a makefile make reads from a stream, or the text of
// --eval: deny and ask rules read its recipe lines (after a tab) where
// they are written out, in the word or in a here-document.
func (a *shellReader) makeInput(name string, value word, long bool, redirs []*syntax.Redirect) {
	if name == "f" && value.literal && value.value != "-" && !streamPath(value.value) {
		return // a makefile like any other
	}
	text := value.value
	if name == "f" && value.literal {
		fd := 0
		if value.value != "-" {
			fd = streamFD(value.value)
		}
		text = ""
		if r := lastRedirect(fd, redirs); r != nil && r.Hdoc != nil {
			text = source(r.Hdoc)
		} else if r != nil && r.Op == syntax.WordHdoc {
			text = readWord(r.Word).value
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if recipe, ok := strings.CutPrefix(line, "\t"); ok {
			a.denyCode(strings.TrimLeft(recipe, "@+-"))
		}
	}
	a.stop("it runs make with a makefile from its input or a string (-" + map[bool]string{true: "-", false: ""}[long] + name + "), whose recipes no rule sees")
}

// compgenCode reads compgen and complete: -C runs a command, -W's words
// are expanded (substitutions and all), -F names a function.
func compgenCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	a.uncover("it generates completions (" + clip(ws[0].text) + "), which can run commands")
	for _, w := range ws[1:] {
		if !w.literal {
			a.stop("it gives " + clip(ws[0].text) + " a word not written out (" + clip(w.text) + "), which may be a command it runs")
			return
		}
	}
	a.optionCode(ws, 'C')
	a.optionCode(ws, 'W')
}

// optionCode reads the value of a short option that is code (-C
// command): the rest of its word, or the next word.
func (a *shellReader) optionCode(ws []word, letter byte) {
	what := clip(ws[0].text) + " -" + string(letter)
	for i := 1; i < len(ws); i++ {
		v := ws[i].value
		if !ws[i].literal || len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		j := strings.IndexByte(v, letter)
		switch {
		case j < 1:
		case j < len(v)-1:
			a.codeWord(literalWord(v[j+1:]), what)
		case i+1 < len(ws):
			i++
			a.codeWord(ws[i], what)
		default:
			a.stop("it runs " + what + " with no value written out: it comes from elsewhere (xargs's input)")
		}
	}
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
			a.denyCode(Quote(w.value))
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
			a.simple(unplaced(ws[i+1:end], "{}"), redirs) // it inherits find's input
		}
		i = end
	}
}

// scheduledCode reads at, batch and crontab, which take the commands they
// run later from a file (-f file; crontab's file) or from their input.
func scheduledCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	name := clip(ws[0].text)
	crontab := commandBase(ws[0]) == "crontab"
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		switch v := w.value; {
		case !w.literal:
			a.stop("it gives " + name + " a word not written out (" + clip(w.text) + "), which may name the commands it runs")
			return
		case v == "-f" && !crontab:
			if i+1 < len(ws) {
				a.scriptFile(ws[0], ws[i+1], redirs)
			}
			return
		case strings.HasPrefix(v, "-") && v != "-" && (crontab && strings.ContainsAny(v[1:], "lre") || !crontab && strings.ContainsAny(v[1:], "lrdc")):
			return // lists, removes, shows or edits jobs
		case crontab && !strings.HasPrefix(v, "-"):
			a.uncover("it installs commands to run later (" + name + ")")
			a.scriptFile(ws[0], w, redirs)
			return
		}
	}
	a.uncover("it takes commands to run later from its input (" + name + ")")
	a.inputCode(0, name, redirs)
}

// historyCode reads fc, which runs commands from the shell's history
// (fc -s; fc -e editor edits then runs them), and history -s, which puts
// a command there: no rule sees what fc runs, and deny and ask rules
// read what history -s stores.
func historyCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	if commandBase(ws[0]) == "history" {
		if len(ws) > 1 && ws[1].literal && ws[1].value == "-s" {
			a.uncover("it puts a command in the shell's history (history -s), which fc runs")
			a.joinedCode(ws[2:], "history -s")
		}
		return
	}
	for _, w := range ws[1:] {
		if w.literal && strings.HasPrefix(w.value, "-") && strings.Contains(w.value, "l") {
			return // lists
		}
	}
	a.stop("it runs commands from the shell's history (" + clip(ws[0].text) + "), which no rule sees")
}
