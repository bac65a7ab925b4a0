package shellread

import (
	"path"
	"strings"
)

// A script file is a command like any other: deny rules do not read it.
// But a line that writes a file and runs it (echo 'rm -rf x' > s.sh; bash
// s.sh; curl -o s.sh URL && ./s.sh) runs code from the line itself, or
// from where no rule looks: such a line is not read in full. The files a
// line writes are what its redirections name and what tee, cp, mv,
// install, ln and dd of= write; curl and wget may name theirs from the
// URL, sed -i changes its files and sed's w writes one, and a name not
// written out may be any file, so then any script the line runs counts.

// wrote records a file the line writes, or that it writes one it cannot
// name.
func (a *shellReader) wrote(w word) {
	if !w.literal {
		a.writesHidden = true
		return
	}
	if a.writes == nil {
		a.writes = map[string]bool{}
	}
	a.writes[path.Clean(w.value)] = true
}

// ran records a script or program the line runs by its path.
func (a *shellReader) ran(p string) {
	if len(a.scripts) < MaxCmds {
		a.scripts = append(a.scripts, path.Clean(p))
	}
}

// noteWrites records the files a plain command writes.
func (a *shellReader) noteWrites(ws []word) {
	operand := func(w word) bool { return !w.literal || !strings.HasPrefix(w.value, "-") }
	switch commandBase(ws[0]) {
	case "tee":
		for _, w := range ws[1:] {
			if operand(w) {
				a.wrote(w)
			}
		}
	case "cp", "mv", "install", "ln":
		for i := len(ws) - 1; i > 0; i-- {
			if operand(ws[i]) {
				a.wrote(ws[i])
				break
			}
		}
	case "dd":
		for _, w := range ws[1:] {
			if of, ok := strings.CutPrefix(w.value, "of="); ok || !w.literal {
				a.wrote(word{value: of, literal: w.literal})
			}
		}
	case "curl", "wget":
		a.writesHidden = true // -o, -O, or a name from the URL
	case "sed", "gsed", "perl":
		// -i changes files in place; sed's w writes one.
		for _, w := range ws[1:] {
			if !w.literal || strings.HasPrefix(w.value, "-i") || strings.HasPrefix(w.value, "--in-place") || w.value == "-pi" ||
				!strings.HasPrefix(w.value, "-") && strings.ContainsAny(w.value, "wW") {
				a.writesHidden = true
			}
		}
	}
}

// ranWritten checks, once the line is read, whether it runs a script or
// program it writes.
func (a *shellReader) ranWritten() {
	for _, s := range a.scripts {
		if a.writesHidden || a.writes[s] {
			a.unseen("it writes a file and runs a script or program (" + clip(s) + ") in the same line, whose code no rule sees")
			return
		}
	}
}
