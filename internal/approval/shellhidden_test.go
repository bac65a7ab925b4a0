package approval

import "testing"

// Builtins that read a word as a variable's name evaluate the name's
// subscript as arithmetic, and a[$(…)] runs the command: each line below
// was seen to run touch in place of rm, in bash 5.2 or zsh 5.9 as named.
// An allow rule for the builtin never covers such a name, as it never
// covers [[ -v 'a[$(…)]' ]].
func TestNamesWithSubscriptsAreAsked(t *testing.T) {
	for _, c := range []struct{ rules, line, how string }{
		{"Bash(printf:*) Bash(git status:*)", "printf -v 'a[$(rm -rf x)]' x && git status", "bash's printf -v"},
		{"Bash(printf:*)", "printf -v'a[$(rm -rf x)]' x", "the name joined to -v"},
		{"Bash(printf:*)", "printf -v x -v 'a[$(rm -rf x)]' y", "the last -v counts"},
		{"Bash(printf:*) Bash(echo:*)", `echo 'a[$(rm -rf x)]'; printf -v "$_" x`, "a name read from a value ($_ is the last word)"},
		{"Bash(read:*)", "read 'a[$(rm -rf x)]' <<< x", "bash's and zsh's read"},
		{"Bash(read:*)", "read -r x 'a[$(rm -rf x)]' <<< 'x y'", "any of read's names"},
		{"Bash(read:*)", "read -t 'a[$(rm -rf x)]' <<< x", "zsh's read -t takes no value: the word is a name"},
		{"Bash(test:*)", "test -v 'a[$(rm -rf x)]'", "bash's test -v"},
		{"Bash([:*)", "[ -v 'a[$(rm -rf x)]' ]", "and [ -v ]"},
		{"Bash(test:*)", "test -n x -a ! -v 'a[$(rm -rf x)]'", "inside a longer test"},
		{"Bash(test:*) Bash(echo:*)", `echo 'a[$(rm -rf x)]'; test -v "$_"`, "a name read from a value"},
		{"Bash([:*) Bash(echo:*)", `echo -v; [ "$_" 'a[$(rm -rf x)]' ]`, "an operator read from a value"},
		{"Bash(unset:*)", "unset 'GROUPS[$(rm -rf x)]'", "bash's unset, of an array that always exists"},
		{"Bash(wait:*)", "wait -n -p 'a[$(rm -rf x)]'", "bash's wait -p"},
		{"Bash(print:*)", "print -nv 'a[$(rm -rf x)]' x", "zsh's print -v"},
		{"Bash(getopts:*)", "getopts a 'a[$(rm -rf x)]' -a", "zsh's getopts"},
		{"Bash(printf:*)", "builtin printf -v 'a[$(rm -rf x)]' x", "behind builtin"},
		{"Bash(echo:*)", "echo 'b[$(rm -rf x)]'; echo {a[_]}>&1", "a redirection's {name} sets the variable, subscript and all"},
		{"Bash(git status:*)", "git status {fd}>&2", "any {name} sets a variable"},
	} {
		p := Policy{Allow: mustRules(t, c.rules)}
		req := call("Bash", mustJSONString(t, map[string]string{"command": c.line}))
		if d, decided := p.Decide(req, nil); decided {
			t.Errorf("%s: %q decided %+v; want it asked (%s)", c.rules, c.line, d, c.how)
		}
	}
	// What stays allowed: names written out, and words that are data.
	for _, c := range []struct{ rules, line string }{
		{"Bash(printf:*)", `printf '%s\n' 'a[1]' "$HOME"`},
		{"Bash(printf:*)", `printf '[%s]\n' x`},
		{"Bash(printf:*)", "printf -v out '%s' x"},
		{"Bash(read:*)", "read -r line"},
		{"Bash(read:*)", "read -rp 'Continue [y/N]? ' ans"},
		{"Bash(test:*)", "test -f go.mod"},
		{"Bash([:*)", `[ -n "$x" ]`},
		{"Bash([:*)", `[ "$a" = "$b" ]`},
		{"Bash([:*)", "[ -v HOME ]"},
		{"Bash(unset:*)", "unset x y"},
		{"Bash(wait:*)", "wait -n -p pid"},
		{"Bash(git status:*)", "git status 2>&1"},
	} {
		p := Policy{Allow: mustRules(t, c.rules)}
		if d, decided := p.Decide(call("Bash", mustJSONString(t, map[string]string{"command": c.line})), nil); !decided || !d.Allow {
			t.Errorf("%s: %q decided %v %+v; want it allowed", c.rules, c.line, decided, d)
		}
	}
}
