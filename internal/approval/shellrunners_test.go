package approval

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/approval/shellread"
)

// Runners the rules see through: each line runs rm in real bash
// (checked), and a deny rule for rm denies it under every mode, as it
// denies rm behind sudo. On main each was allowed with allow Bash or
// bypassPermissions.
func TestRunnersDenyRulesSeeThrough(t *testing.T) {
	b := needBash(t)
	for _, c := range []struct {
		needs []string
		line  string
	}{
		{[]string{"chrt"}, `chrt -o 0 rm -f v`},
		{[]string{"chrt"}, `chrt --other 0 rm -f v`},
		{[]string{"setpriv"}, `setpriv --nnp rm -f v`},
		{[]string{"git"}, `git -c alias.x='!rm -f v' x`},
		{[]string{"git"}, `git -c 'alias.x=!rm -f v' x`},
		{[]string{"git"}, `git -c core.sshCommand='rm -f v' ls-remote ssh://h/x`},
		{[]string{"git"}, `git init -q && git -c core.fsmonitor='rm -f v' status`},
		{[]string{"git"}, `git init -q && git config alias.x '!rm -f v' && git x`},
		{[]string{"git"}, `git init -q && git config core.fsmonitor 'rm -f v' && git status`},
		{[]string{"git"}, `GIT_CONFIG_PARAMETERS="'alias.x=!rm -f v'" git x`},
		{[]string{"git"}, `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -f v' git x`},
		{[]string{"git"}, `git init -q && echo x > f && git add f && echo y > f && git -c diff.external='rm -f v' diff`},
		{[]string{"make"}, `make -f /dev/stdin <<< $'all:\n\trm -f v'`},
		{[]string{"make"}, "make -f - <<'EOF'\nall:\n\trm -f v\nEOF"},
		{[]string{"make"}, `make --eval=$'x:\n\trm -f v' x`},
		{[]string{"make"}, `printf 'all:\n\t$(X)\n' > m.mk; make -f m.mk X='rm -f v'`},
	} {
		if !needs(t, c.needs...) {
			continue
		}
		if !b.runsRm(c.line) {
			t.Errorf("%q does not run rm in bash; the case tests nothing", c.line)
			continue
		}
		for mode, got := range decisions(t, c.line) {
			if want := map[bool]string{true: "asked", false: "denied"}[mode == "an ask rule"]; got != want {
				t.Errorf("%q: %s with a deny rule for rm: %s, want %s", c.line, mode, got, want)
			}
		}
	}
	// Code git or make takes from elsewhere is not seen: asked.
	for _, line := range []string{`git -c "alias.x=!$CMD" x`, `git --config-env=alias.x=CMD x`, `make -f "$MF"`, `echo 'all:' | make -f -`} {
		for mode, got := range decisions(t, line) {
			if got != "asked" {
				t.Errorf("%q: %s with a deny rule for rm: %s, want asked", line, mode, got)
			}
		}
	}
}

// A command askuser does not know may run its words as a command (runit
// here does, as cgexec, a script or docker exec would). Under a deny rule
// for rm, a line where such a command is given words the rule matches is
// asked, under every mode: never denied (it may not run them), never
// allowed (it may). Commands known to run nothing they are given, and
// git, whose runs are read, are not guessed at: git rm is git's.
func TestUnknownRunnerIsAsked(t *testing.T) {
	b := needBash(t)
	for _, line := range []string{
		`runit rm -f v`,
		`runit /bin/sh -c 'rm -f v'`,
		`runit nice rm -f v`,
		`echo rm -f v | xargs runit`,
		`./runner.sh rm -f v 2>/dev/null; runit rm -f v`,
	} {
		if !b.runsRm(line) {
			t.Errorf("%q does not run rm in bash; the case tests nothing", line)
			continue
		}
		for mode, got := range decisions(t, line) {
			if got != "asked" {
				t.Errorf("%q: %s with a deny rule for rm: %s, want asked", line, mode, got)
			}
		}
	}
	for _, line := range []string{`echo rm -f v`, `git init -q && touch x && git add x && git rm -q --cached x`, `grep -c rm /dev/null; true`, `runit echo v`} {
		if b.runsRm(line) {
			t.Errorf("%q runs rm in bash", line)
			continue
		}
		for mode, got := range decisions(t, line) {
			if got != "allowed" {
				t.Errorf("%q: %s with a deny rule for rm: %s, want allowed", line, mode, got)
			}
		}
	}
}

// Reading the words of unknown commands as guesses costs what reading
// the line costs: the guesses share the command's text.
func TestGuessesAreBounded(t *testing.T) {
	text := strings.Repeat("a b ", 5000)
	for _, line := range []string{"runit " + text, strings.Repeat("runit ", 20) + text, "runit " + strings.Repeat("'a b; c' ", 2000)} {
		got := shellread.Read(line)
		if len(got.Cmds()) > shellread.MaxCmds {
			t.Errorf("%d readings", len(got.Cmds()))
		}
		if got.Partial() != "" && !strings.Contains(got.Partial(), "too") {
			t.Errorf("%.40q…: %s", line, got.Partial())
		}
	}
}

// Code in another language is not read: where an interpreter takes it
// from an option or from its input, a deny rule for Bash asks; a script
// file named is a command like any other, and awk and sed programs that
// cannot run a command run.
func TestCodeInAnotherLanguageIsAsked(t *testing.T) {
	for line, want := range map[string]string{
		"python3 -c 'import os'": "asked", "python3": "asked", "python3 - < x.py": "asked", "echo x | python3.12": "asked",
		"perl -ne 'print'": "asked", "node -e x": "asked", "node --eval=x": "asked", "ruby -e x": "asked", "php -r x": "asked",
		"deno eval x": "asked", "pwsh -Command x": "asked", "awk 'BEGIN { system(\"x\") }'": "asked", "awk '{ print | \"sh\" }'": "asked",
		"gawk -e 'BEGIN { system(\"x\") }'": "asked", "sed -e 1e": "asked", "sed --expression='s/a/b/e'": "asked",
		"sed -ne 's/a/b/ep'": "asked", "sed \"$SCRIPT\"": "asked", "awk \"$PROG\"": "asked",
		"python3 script.py": "allowed", "python3 -m pytest -q": "allowed", "python3 -u -W ignore x.py": "allowed",
		"perl script.pl": "allowed", "node x.js": "allowed", "php x.php": "allowed", "deno run x.ts": "allowed",
		"pwsh -File x.ps1": "allowed", "awk '{ print $1 }' f": "allowed", "awk -F: -f prog.awk f": "allowed",
		"sed -n '1,5p' f": "allowed", "sed -i 's/a/b/g' f": "allowed", "sed --sandbox -e 1e": "allowed",
	} {
		p := Policy{Allow: mustRules(t, "Bash"), Deny: mustRules(t, "Bash(rm:*)")}
		if got := decided(p, call("Bash", mustJSONString(t, map[string]string{"command": line}))); got != want {
			t.Errorf("%q: %s, want %s", line, got, want)
		}
	}
}
