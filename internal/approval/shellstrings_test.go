package approval

import (
	"slices"
	"testing"
)

// codeFromStrings are lines that make bash run rm from a string, each
// with how.
var codeFromStrings = []struct{ how, line string }{
	// Arithmetic reads a value, and a subscript in it runs a command.
	{"$((_))", `echo 'a[$(rm -f v)]'; echo $((_))`},
	{"$((x)) of a value", `echo 'a[$(rm -f v)]'; x=$_; echo $(($x))`},
	{"$[…]", `echo 'a[$(rm -f v)]'; echo $[_]`},
	{"((…))", `echo 'a[$(rm -f v)]'; (( _ ))`},
	{"let", `echo 'a[$(rm -f v)]'; let _`},
	{"for ((…))", `echo 'a[$(rm -f v)]'; for ((i=_;0;)); do :; done`},
	{"a subscript", `echo 'a[$(rm -f v)]'; echo ${a[_]}`},
	{"an assignment's subscript", `echo 'a[$(rm -f v)]'; a[_]=1`},
	{"[[ -v ]]", `echo 'a[$(rm -f v)]'; [[ -v $_ ]]`},
	{"[[ -eq ]]", `echo 'a[$(rm -f v)]'; [[ $_ -eq 0 ]]`},
	{"test -v", `echo 'a[$(rm -f v)]'; test -v "$_"`},
	{"declare -i", `echo 'a[$(rm -f v)]'; declare -i x=$_`},
	{"typeset -i, later", `echo 'a[$(rm -f v)]'; y=$_; typeset -i i; i=$y`},
	{"declare -n", `echo 'a[$(rm -f v)]'; declare -n r=$_; echo $r`},
	{"printf -v", `printf -v 'a[$(rm -f v)]' x`},
	{"printf -v a value", `echo 'a[$(rm -f v)]'; printf -v "$_" x`},
	{"a descriptor named with a subscript", `echo 'b[$(rm -f v)]'; echo {a[_]}>&1`},
	{"read", `read 'a[$(rm -f v)]' <<< x`},
	{"a number the line set, then changed", `x=1; echo 'a[$(rm${IFS}-f${IFS}v)]'; x=$_; echo $((x))`},
	{"read into a number", `x=1; read x <<< 'a[$(rm${IFS}-f${IFS}v)]'; echo $((x))`},
	{"a loop variable changed in the loop", `for ((i=0; i<1; i++)); do read i <<< 'a[$(rm${IFS}-f${IFS}v)]'; n=$((n+1)); ((n > 2)) && break; done`},
	{"set behind ||", `x='a[$(rm${IFS}-f${IFS}v)]'; true || x=1; echo $((x))`},
	{"set in a subshell", `x='a[$(rm${IFS}-f${IFS}v)]'; (x=1); echo $((x))`},
	{"set by a function", `x=1; f() { x='a[$(rm${IFS}-f${IFS}v)]'; }; f; echo $((x))`},
	{"set by a sourced file", `x=1; echo "x='a[\$(rm${IFS}-f${IFS}v)]'" > e.sh; . ./e.sh; echo $((x))`},
	// A name read from a value, a prompt expanded.
	{"${!_}", `echo 'a[$(rm -f v)]'; echo "${!_}"`},
	{"${x@P}", `x='$(rm -f v)'; echo ${x@P}`},
	{"PS4, no space", `PS4='$(rm${IFS}-f${IFS}v)'; set -x; :`},
	{"PS4 from a value", `x='$(rm -f v)'; PS4=$x; set -x; :`},
	{"read PS4", `read -r PS4 <<< '$(rm -f v)'; set -x; :`},
	{"printf -v PS4", `printf -v PS4 '%s' '$(rm -f v)'; set -x; :`},
	{"BASH_ENV from a value", `x='$(rm -f v)'; BASH_ENV=$x bash -c :`},
	{"BASH_ENV through env", `env BASH_ENV='$(rm -f v)' bash -c :`},
	{"a function exported through env", `env 'BASH_FUNC_ls%%=() { rm -f v; }' bash -c ls`},
	// Code piped or fed to a shell, from a value or a substitution.
	{"| bash", `echo rm -f v | bash`},
	{"| sh", `echo rm -f v | sh`},
	{"| dash", `echo rm -f v | dash`},
	{"| bash -s", `echo rm -f v | bash -s`},
	{"| bash -", `echo rm -f v | bash -`},
	{"| bash /dev/stdin", `echo rm -f v | bash /dev/stdin`},
	{"| bash /proc/self/fd/0", `echo rm -f v | bash /proc/self/fd/0`},
	{"| source /dev/stdin", `echo rm -f v | source /dev/stdin`},
	{"| . /dev/fd/0", `echo rm -f v | . /dev/fd/0`},
	{"| env bash", `echo rm -f v | env bash`},
	{"| { bash; }", `echo rm -f v | { bash; }`},
	{"| xargs sh -c", `echo rm -f v | xargs sh -c`},
	{"| xargs -I{} sh -c {}", `echo 'rm -f v' | xargs -I{} sh -c {}`},
	{"| xargs env", `echo rm -f v | xargs env`},
	{"| xargs timeout 5", `echo rm -f v | xargs timeout 5`},
	{"here-string of a value", `x='rm -f v'; bash <<< "$x"`},
	{"bash <(…)", `bash <(echo rm -f v)`},
	{"bash < <(…)", `bash < <(echo rm -f v)`},
	{"source <(…)", `source <(echo rm -f v)`},
	{"another descriptor", `exec 3<<<'rm -f v'; bash /dev/fd/3`},
	{"a coprocess", `coproc bash; echo rm -f v >&${COPROC[1]}; exec {COPROC[1]}>&-; wait`},
	{"bash -c of a substitution", `sh -c "$(echo rm -f v)"`},
	{"eval of a substitution", `eval "$(echo rm -f v)"`},
	{"trap of a substitution", `trap -- "$(echo rm -f v)" EXIT`},
	{"fc runs history", `history -s 'rm -f v'; fc -s 2>/dev/null; true`},
	{"a script the line writes", `echo 'rm -f v' > s.sh; bash s.sh`},
	{"a program the line writes", `printf '#!/bin/sh\nrm -f v' > s; chmod +x s; ./s`},
	// Builtins that run a string.
	{"compgen -C", `compgen -C 'rm -f v' x`},
	{"compgen -W", `compgen -W '$(rm -f v)' x`},
	{"mapfile -C", `mapfile -C 'rm -f v' -c 1 a <<< x`},
}

// Bash runs code it builds from strings: a value evaluated as arithmetic
// (a subscript in it runs a command), a name read from a value (${!x}),
// a prompt expanded (${x@P}, PS4), code piped into a shell, a variable a
// program runs. Each line below runs rm in real bash (checked), and none
// may be allowed while a deny rule for rm stands, under any mode: the
// reader cannot see through it, so it is asked (or denied where the code
// is written out). On main, with allow Bash or bypassPermissions, most
// were allowed.
func TestDenyRulesSeeCodeBashRunsFromStrings(t *testing.T) {
	b := needBash(t)
	lines := slices.Clone(codeFromStrings)
	// Commands that run a shell when given none: whether they run here
	// depends on the user (su as root needs no password) and what is
	// installed, so a line that does not run rm is only logged.
	for _, c := range []struct{ how, line string }{
		{"| su", `echo rm -f v | su`},
		{"| sg", `echo rm -f v | sg root`},
		{"| script", `echo rm -f v | script -q /dev/null`},
	} {
		if !b.runsRm(c.line) {
			t.Logf("%s: %q does not run rm here", c.how, c.line)
			continue
		}
		lines = append(lines, c)
	}
	// The same, with programs that may not be installed here: decided
	// alike, whether or not they run.
	for _, line := range []string{`echo rm -f v | ksh93`, `echo rm -f v | parallel`, `echo rm -f v | ssh host`,
		`echo rm -f v | sudo -s`, `echo rm -f v | sudo -i`, `echo rm -f v | doas -s`, `echo rm -f v | nsenter -t 1 -m`} {
		for mode, got := range decisions(t, line) {
			if got == "allowed" {
				t.Errorf("%q: %s with a deny rule for rm allowed it", line, mode)
			}
		}
	}
	for _, c := range lines {
		if !b.runsRm(c.line) {
			t.Errorf("%s: %q does not run rm in bash; the case tests nothing", c.how, c.line)
			continue
		}
		for mode, got := range decisions(t, c.line) {
			if got == "allowed" {
				t.Errorf("%s: %q runs rm, and %s with a deny rule for rm allowed it", c.how, c.line, mode)
			}
		}
	}
}

// What only looks alike still runs under a deny rule for rm: arithmetic
// on numbers the line itself set, names written out, code read in full.
// Each line is checked not to run rm in real bash.
func TestLinesThatOnlyLookAlikeStillRun(t *testing.T) {
	b := needBash(t)
	for _, line := range []string{
		`echo $((1 + 2)) ${#HOME} $(($# + 1))`,
		`x=3; echo $((x + 1))`,
		`i=0; ((i++)); echo $i`,
		`for ((i=0; i<3; i++)); do echo $i; done`,
		`n=3; for ((i=0; i<n; i++)); do echo $((i*2)); done`,
		`x=5; y=$((x+1)); echo $((y))`,
		`echo "${HOME:0:5}" "${arr[@]}"`,
		`[[ -v HOME ]] && [[ 1 -eq 1 ]] && echo ok`,
		`printf -v out '%s' x; read -r line <<< y; echo "$out$line"`,
		`echo rm -rf x`,
		`git --version`,
		`awk '{print $1}' <<< 'a b'`,
		`sed -n '1p;s/a/b/g' <<< x`,
		`bash -c 'echo hi'`,
		`echo 'echo hi' | cat`,
		`echo a | xargs -I{} echo {}`,
		`find . -maxdepth 0 -exec echo {} \;`,
	} {
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
