package shellread

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Interpreters run code in a language the rules do not read: written in
// an option (python3 -c, perl -e, node -e), or read from their input when
// no script is named (echo '…' | python3). A deny or ask rule for Bash
// cannot see the commands that code runs (os.system("rm -rf x")), so such
// a line is not read in full: under a deny or ask rule that names Bash it
// is asked. An allow rule for the interpreter still covers it, as it
// covers every run of it; a script file named is a command like any
// other. awk and sed are read closer: only a program that can run a
// command (awk's system() or a pipe, sed's e) is hidden.

// interpreter describes an interpreter's options.
type interpreter struct {
	// code are the short options whose value is code (-c, -e); long the
	// long ones (--eval).
	code string
	long []string
	// script are the short options that name the script or module to
	// run (python -m, php -f); valued those that take the next word.
	script, valued string
	// stdin: with no script named, the code is read from the input.
	stdin bool
}

var interpreters = map[string]interpreter{
	"python":     {code: "c", script: "m", valued: "WXQ", stdin: true},
	"pypy":       {code: "c", script: "m", valued: "WXQ", stdin: true},
	"perl":       {code: "eE", valued: "I", stdin: true},
	"ruby":       {code: "e", valued: "IrCEX", stdin: true},
	"node":       {code: "ep", long: []string{"eval", "print"}, valued: "r", stdin: true},
	"nodejs":     {code: "ep", long: []string{"eval", "print"}, valued: "r", stdin: true},
	"bun":        {code: "ep", long: []string{"eval", "print"}},
	"php":        {code: "rBRE", script: "f", valued: "cdz", stdin: true},
	"lua":        {code: "e", valued: "l", stdin: true},
	"luajit":     {code: "e", valued: "l", stdin: true},
	"Rscript":    {code: "e"},
	"R":          {code: "e", script: "f", stdin: true},
	"osascript":  {code: "e", stdin: true},
	"tclsh":      {stdin: true},
	"wish":       {stdin: true},
	"expect":     {code: "c", script: "f", stdin: true},
	"julia":      {code: "eEp", long: []string{"eval", "print"}, stdin: true},
	"irb":        {stdin: true},
	"pwsh":       {stdin: true}, // its options are read by pwshHidden
	"powershell": {stdin: true},
	"deno":       {}, // read by denoHidden
}

// interpreterName is a command's name without a version (python3.12,
// perl5.36, php8.2 are python, perl, php), or "" when it names no
// interpreter askuser knows.
func interpreterName(base string) string {
	name := strings.TrimRight(base, "0123456789.")
	if _, ok := interpreters[name]; ok {
		return name
	}
	return ""
}

// interpCode reads an interpreter.
func interpCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	name := interpreterName(commandBase(ws[0]))
	var hidden string
	switch name {
	case "pwsh", "powershell":
		hidden = pwshHidden(ws)
	case "deno":
		hidden = denoHidden(ws)
	default:
		var script int
		hidden, script = interpreters[name].hidden(ws)
		if script > 0 && ws[script].literal {
			a.ran(ws[script].value)
		}
	}
	if hidden != "" {
		a.unseen("it runs " + clip(ws[0].text) + " code from " + hidden + ", a language the rules do not read, which may run any command")
	}
}

// hidden says where an interpreter's code comes from when it is not a
// script file named, or "" and the script's index (0 for a module).
func (ip interpreter) hidden(ws []word) (string, int) {
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		if !w.literal {
			return "a word not written out (" + clip(w.text) + ")", 0
		}
		v := w.value
		switch {
		case v == "-":
			return "its input", 0
		case v == "--":
			if i+1 < len(ws) {
				return "", i + 1
			}
			return "its input", 0
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v[2:], "=")
			if containsString(ip.long, name) {
				return "an option (" + clip(v) + ")", 0
			}
			continue
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				ch := v[k]
				switch {
				case strings.IndexByte(ip.code, ch) >= 0:
					return "an option (" + clip(v) + ")", 0
				case strings.IndexByte(ip.script, ch) >= 0:
					return "", 0
				case strings.IndexByte(ip.valued, ch) >= 0:
					if k == len(v)-1 {
						i++
					}
					k = len(v)
				}
			}
			continue
		}
		return "", i // the script
	}
	if ip.stdin {
		return "its input", 0
	}
	return "", 0
}

// pwshHidden reads PowerShell's options, which take one dash and any
// case.
func pwshHidden(ws []word) string {
	for _, w := range ws[1:] {
		if !w.literal {
			return "a word not written out (" + clip(w.text) + ")"
		}
		switch strings.ToLower(w.value) {
		case "-c", "-command", "-commandwithargs", "-cwa", "-e", "-ec", "-enc", "-encodedcommand", "-":
			return "an option (" + clip(w.value) + ")"
		case "-f", "-file":
			return ""
		}
	}
	return "its input"
}

// denoHidden reads deno's subcommand: eval and repl (or none) run code
// that is not a file.
func denoHidden(ws []word) string {
	for _, w := range ws[1:] {
		if !w.literal {
			return "a word not written out (" + clip(w.text) + ")"
		}
		if strings.HasPrefix(w.value, "-") {
			continue
		}
		if w.value == "eval" || w.value == "repl" {
			return "deno " + w.value
		}
		return ""
	}
	return "its input"
}

// awkCode reads awk: a program that can run a command (system(), a pipe
// to or from one, a library loaded) hides what it runs.
func awkCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	hidden := ""
	program := false // a program was given by -e, or a file by -f
	for i := 1; i < len(ws) && hidden == ""; i++ {
		w := ws[i]
		v := w.value
		switch {
		case !w.literal:
			hidden = "a word not written out (" + clip(w.text) + ")"
		case v == "-f" || v == "-E" || v == "-v" || v == "-F" || v == "-i" || v == "--file" || v == "--assign" || v == "--include":
			program = program || v == "-f" || v == "-E" || v == "--file"
			i++
		case v == "-e" || v == "--source":
			program = true
			if i+1 < len(ws) {
				hidden = awkHidden(ws[i+1])
			}
			i++
		case strings.HasPrefix(v, "--source="):
			program = true
			hidden = awkHidden(word{literal: true, value: strings.TrimPrefix(v, "--source=")})
		case v == "-l" || v == "--load" || strings.HasPrefix(v, "--load="):
			hidden = "a library it loads (" + clip(v) + ")"
		case v == "--":
			if !program && i+1 < len(ws) {
				hidden = awkHidden(ws[i+1])
			}
			i = len(ws)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			program = program || strings.HasPrefix(v, "-f") || strings.HasPrefix(v, "--file=")
		case !program:
			hidden = awkHidden(w)
			program = true
		}
	}
	if hidden != "" {
		a.unseen("it runs " + clip(ws[0].text) + " with a program that can run commands (" + hidden + "), which the rules do not read")
	}
}

// awkHidden says why an awk program may run a command, or "".
func awkHidden(w word) string {
	switch {
	case !w.literal:
		return "a program not written out"
	case strings.Contains(w.value, "system"), strings.Contains(w.value, "|"), strings.Contains(w.value, "@load"):
		return "system(), a pipe or @load"
	}
	return ""
}

// sedCode reads sed: a script with GNU sed's e command or s///e flag runs
// a command (--sandbox refuses them).
func sedCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	var scripts []word
	given := false // -e or -f named the script
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		v := w.value
		switch {
		case w.literal && v == "--sandbox":
			return
		case !w.literal:
			scripts = append(scripts, w) // it may be -e, or the script
		case v == "-e" || v == "--expression" || v == "-f" || v == "--file" || v == "-l" || v == "--line-length":
			if i+1 < len(ws) && (v == "-e" || v == "--expression") {
				scripts = append(scripts, ws[i+1])
			}
			given = given || v != "-l" && v != "--line-length"
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts, given = append(scripts, literalWord(strings.TrimPrefix(v, "--expression="))), true
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "ef"):
			// -ne 's/…/', -n -e…: the value is what follows e or f, or the next word.
			j := strings.IndexAny(v, "ef")
			switch {
			case j < len(v)-1 && v[j] == 'e':
				scripts = append(scripts, literalWord(v[j+1:]))
			case j == len(v)-1 && i+1 < len(ws):
				if v[j] == 'e' {
					scripts = append(scripts, ws[i+1])
				}
				i++
			}
			given = true
		case strings.HasPrefix(v, "-"):
		case !given:
			scripts, given = append(scripts, w), true
		}
	}
	for _, s := range scripts {
		if !s.literal || sedRuns(s.value) {
			a.unseen("it runs " + clip(ws[0].text) + " with a script that can run commands (e, s///e, or one not written out), which the rules do not read")
			return
		}
	}
}

func literalWord(v string) word { return word{text: Quote(v), value: v, literal: true, code: v} }
