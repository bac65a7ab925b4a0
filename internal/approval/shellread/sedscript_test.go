package shellread

import (
	"os/exec"
	"strings"
	"testing"
)

// sedRuns reads a sed script as GNU sed does: it says a script runs a
// command exactly where GNU sed --sandbox refuses it for its e (scripts
// with r or w, which --sandbox refuses too, are left out).
func TestSedScriptsAsGNUSedReadsThem(t *testing.T) {
	if out, err := exec.Command("sed", "--sandbox", "-n", "p", "/dev/null").CombinedOutput(); err != nil {
		t.Skipf("no GNU sed here (%v: %s)", err, out)
	}
	for _, script := range []string{
		`s/a/b/g`, `s/a/b/e`, `1e echo`, `/x/{p;q}`, "$a\\\nfoo", `s|a|b|`, `s/[/]/x/e`, `y/abc/xyz/`, `/^#/d`,
		`s/x/y/;e`, `a text with e`, "i\\\nmore e\\\nlines", `0,/re/s//x/`, `s/a/b/I`, `1~2p`, `N;P;D`,
		`:a;N;$!ba;s/\n/ /g`, `/start/,/end/p`, `s/a/b/ge`, `s/a/b/3`, `e`, `s/e/f/`, `s/a/b/;s/c/d/e`, `/e/!d`,
		`\,e,d`, `\,x,e echo`, `s/[[:alpha:]/]/x/e`, `s/a\/e/b/`, `$!{N}`, "# e\np", `s/a/b/m`, `T;e`,
		`b end; e; :end`, `{e}`, "1,3{/x/e echo\n}", `v 4.2`, `F`, `z;e`, `s/x/y/pe`, `l 5`, `q5`, `Q`, `=`,
	} {
		out, _ := exec.Command("sed", "--sandbox", "-n", script, "/dev/null").CombinedOutput()
		runs := strings.Contains(string(out), "disabled in sandbox")
		if got := sedRuns(script); got != runs {
			t.Errorf("%q: sedRuns says %v; GNU sed --sandbox: %s", script, got, out)
		}
	}
}
