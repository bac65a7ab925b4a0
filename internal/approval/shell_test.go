package approval

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/askuser/askuser/internal/approval/shellread"
)

// Hostile lines are read in bounded work, never panic, and are never
// allowed by a rule for something else.
func TestShellHostile(t *testing.T) {
	lines := map[string]string{
		"deep subshells":     strings.Repeat("(", 5000) + "rm -rf x" + strings.Repeat(")", 5000),
		"deep substitutions": strings.Repeat("$(", 2000) + "rm" + strings.Repeat(")", 2000),
		"many wrappers":      strings.Repeat("sudo ", 2000) + "rm -rf x",
		"many evals":         strings.Repeat("eval ", 2000) + "rm -rf x",
		"nested bash -c":     nestBashC(12, "rm -rf x"),
		"long pipeline":      strings.Repeat("git status | ", 3000) + "rm -rf x",
		"many arguments":     "sudo " + strings.Repeat("-u root ", 3000) + "rm -rf x",
		"NUL":                "git status\x00; rm -rf x",
		"invalid UTF-8":      "git status \xff\xfe; rm -rf x",
		"only a comment":     "# git status",
		"empty":              "",
	}
	allow := Policy{Allow: mustRules(t, "Bash(git status:*)")}
	for name, line := range lines {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		if d, decided := allow.Decide(req, nil); decided {
			t.Errorf("%s: decided %+v; want it asked", name, d)
		}
		if got := shellread.Read(line); len(got.Cmds()) > shellread.MaxCmds {
			t.Errorf("%s: %d readings, over the bound %d", name, len(got.Cmds()), shellread.MaxCmds)
		}
	}
}

func nestBashC(depth int, inner string) string {
	for i := 0; i < depth; i++ {
		inner = "bash -c " + quoted(inner)
	}
	return inner
}

func mustJSONString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A deny rule sees its command through code written out a few levels
// deep, and a line too deep to read is asked, never allowed.
func TestShellDenyThroughNesting(t *testing.T) {
	deny := Policy{Deny: mustRules(t, "Bash(rm:*)"), Mode: ModeBypass}
	for _, line := range []string{
		nestBashC(3, "rm -rf x"),
		"sudo env X=1 nice -n 5 timeout 3 rm -rf x",
		"xargs -I{} sh -c 'rm -rf {}'",
		"find . -exec sudo rm -rf {} +",
		"eval \"$(echo hi); rm -rf x\"",
		"trap 'rm -rf x' EXIT",
		"watch -n1 'rm -rf x'",
		"busybox rm -rf x",
		"=rm -rf x",
		"command -p rm x",
		"/usr/*/rm x",
	} {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		if d, decided := deny.Decide(req, nil); !decided || d.Allow {
			t.Errorf("%q: decided %v %+v; want denied", line, decided, d)
		}
	}
}

// A deny rule must hold where the rules stop reading: a line nested too
// deep, holding too many commands, or that does not parse (bash runs the
// lines before the one it cannot parse) may run a denied command no
// reading saw, so under bypassPermissions or a session's grant it is
// asked, never allowed. A line read in full is still allowed.
func TestDenyHoldsWhereReadingStops(t *testing.T) {
	lines := map[string]string{
		"bash -c 20 deep":     nestBashC(20, "rm -rf x"),
		"$( 40 deep":          strings.Repeat("$(", 40) + "rm -rf x" + strings.Repeat(")", 40),
		"600 commands first":  strings.Repeat("true; ", 600) + "rm -rf x",
		"unparsable after it": "r\\m -rf x\nfi",
		"unparsable, wrapped": "sudo r\\m -rf x\n'",
		"watch, many options": "watch " + strings.Repeat("-d ", 20) + "rm -rf x",
	}
	rules := mustRules(t, "Bash(rm:*)")
	grant := Grants{"Bash": {Allow: true, Scope: ScopeSession, By: ByPerson, Why: "the user"}}
	for name, line := range lines {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		for how, p := range map[string]struct {
			policy Policy
			grants Grants
		}{
			"bypass":   {Policy{Deny: rules, Mode: ModeBypass}, nil},
			"grant":    {Policy{Deny: rules}, grant},
			"ask rule": {Policy{Ask: rules, Mode: ModeBypass}, nil},
		} {
			if d, decided := p.policy.Decide(req, p.grants); decided && d.Allow {
				t.Errorf("%s under %s: allowed (%s); want it asked or denied", name, how, d.Why)
			}
		}
	}
	// Without a deny or ask rule for the tool there is nothing to miss.
	req := call("Bash", mustJSONString(t, map[string]string{"command": lines["600 commands first"]}))
	if d, decided := (Policy{Deny: mustRules(t, "Read(.env)"), Mode: ModeBypass}).Decide(req, nil); !decided || !d.Allow {
		t.Errorf("bypass with no Bash rule: decided %v %+v; want allowed", decided, d)
	}
}

func FuzzReadShell(f *testing.F) {
	for _, c := range ruleTable {
		f.Add(c.call)
	}
	for _, line := range []string{"echo hi", "echo a && echo b | echo c", "echo hi >/dev/null 2>&1", "if echo a; then echo b; fi", "echo a; rm b", "echo $(rm b)",
		"f() { echo a; }; f <<< 'echo b'", "{ echo a; } <<< x", "alias e='echo a'", "hash -p /bin/echo e", "X='echo a' echo b", "env -S 'echo a'",
		// The readings of code bash builds from strings, and of runners.
		"echo $((x))", "x=1; echo $((x))", "for ((i=0;i<2;i++)); do echo $i; done", "echo 'a[$(echo)]'; echo ${!_} ${x@P}",
		"x=1 && ((x++)) || let y=x; echo $((y))", "printf -v PS4 x; read a <<< b", "declare -i x=$_; typeset -n r=x",
		"echo a | bash", "bash <(echo a)", "echo a | xargs -I{} sh -c {}", "echo a > s; . ./s", "fc -s; history -s echo",
		"git -c alias.x='!echo a' x", "git config alias.x '!echo'", "GIT_CONFIG_PARAMETERS=\"'a=!echo b'\" git x",
		"make -f - <<< $'a:\n\techo b'", "make --eval=x X='echo a'", "sed 's/a/b/e;1e echo'", "awk '{system(\"echo\")}'",
		"python3 -c x", "echo x | python3 -", "runit echo a 'echo b; echo c'", "chrt -o 0 echo", "compgen -C 'echo a' -W '$(echo)'",
		"mapfile -C 'echo a' x", "at now <<< 'echo a'", "env 'BASH_FUNC_e%%=() { echo; }' bash -c e"} {
		f.Add(line)
	}
	allow := Policy{Allow: mustRulesF(f, "Bash(echo:*)")}
	f.Fuzz(func(t *testing.T, line string) {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		sh := req.subject().shell // as the call carries it: JSON makes the text valid UTF-8
		if len(sh.Cmds()) > shellread.MaxCmds {
			t.Fatalf("%d readings", len(sh.Cmds()))
		}
		d, ok := allow.Decide(req, nil)
		if !ok || !d.Allow {
			return
		}
		if sh.Uncovered() != "" {
			t.Fatalf("%q allowed though %s", line, sh.Uncovered())
		}
		// The oracle: bash's semantics as mvdan.cc/sh's interpreter runs
		// them, with every command recorded instead of run.
		if ran := commandsRun(t, req.subject().text); len(ran) > 0 {
			t.Fatalf("%q allowed by Bash(echo:*), but it runs %q", line, ran)
		}
	})
}

// commandsRun interprets a line without running anything and returns the
// commands it would run other than echo, and any file it would open.
func commandsRun(t *testing.T, line string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil
	}
	var other []string
	r, err := interp.New(
		interp.Env(expand.ListEnviron()),
		interp.StdIO(nil, io.Discard, io.Discard),
		interp.CallHandler(func(_ context.Context, args []string) ([]string, error) {
			if len(args) > 0 && args[0] != "echo" {
				other = append(other, args[0])
			}
			return args, nil
		}),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			return func(context.Context, []string) error { return nil }
		}),
		interp.OpenHandler(func(_ context.Context, path string, _ int, _ os.FileMode) (io.ReadWriteCloser, error) {
			if path != "/dev/null" {
				other = append(other, "open "+path)
			}
			return nopFile{}, nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	// An allowed loop of echo may run for ever: the bound is not a result.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_ = r.Run(ctx, f)
	return other
}

type nopFile struct{}

func (nopFile) Read([]byte) (int, error)    { return 0, io.EOF }
func (nopFile) Write(p []byte) (int, error) { return len(p), nil }
func (nopFile) Close() error                { return nil }

func mustRulesF(f *testing.F, list string) []Rule {
	r, err := ParseRules(list, "test")
	if err != nil {
		f.Fatal(err)
	}
	return r
}

// Decisions run concurrently (askuser mcp answers approve calls side by
// side): reading their command lines shares nothing. Run under -race
// (.ci/run does), this failed while words were expanded with the shell
// library's shared default configuration, which each expansion writes.
func TestDecideConcurrently(t *testing.T) {
	p := Policy{Allow: mustRules(t, "Bash(git status:*)"), Deny: mustRules(t, "Bash(rm:*)")}
	done := make(chan bool)
	for range 4 {
		go func() {
			allowed := true
			for range 20 {
				d, ok := p.Decide(call("Bash", `{"command":"git status --short 'a b' && git status"}`), nil)
				allowed = allowed && ok && d.Allow
			}
			done <- allowed
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a concurrent decision was not the same as a lone one")
		}
	}
}

// Code hidden where a glance sees only tests and arguments runs all the
// same (each line seen to run echo in place of rm, in the shell named):
// an allow rule for the commands around it never covers it.
func TestHiddenCodeIsAsked(t *testing.T) {
	for _, c := range []struct{ rules, line, how string }{
		{"Bash(git status:*)", "[[ 'a[$(rm -rf x)]' -eq 0 ]] && git status", "bash 5.2's [[ ]] evaluates -eq's operands as arithmetic, subscripts and all"},
		{"Bash(git status:*)", "[[ 'a[$(rm -rf x)]' -gt 0 ]] || git status", "and -ne, -lt, -le, -gt and -ge's"},
		{"Bash(git status:*)", "[[ -v 'a[$(rm -rf x)]' ]] && git status", "and -v's subscript"},
		{"Bash(git status:*) Bash(echo:*)", "echo 'a[$(rm -rf x)]'; [[ _ -eq 0 ]] || git status", "a name's value is evaluated too ($_ is the last word)"},
		{"Bash(git status:*)", "git status '*(e:rm -rf x:)'; git status $~_", "zsh 5.9's $~ reads a value ($_, the last word) as a pattern, whose (e:…:) runs code"},
		{"Bash(git status:*)", "git status \"$~x\"", "bash reads $~ as text, so quoted or not, it is refused"},
		{"Bash(echo:*) Bash(find:*)", "echo '-exec rm -rf x ;'; find . $=_", "zsh's $= splits a value into words: here find's -exec"},
		{"Bash(find:*)", "find . -exec${IFS}rm${IFS}-rf${IFS}x${IFS}\\;", "bash 5.2 splits ${IFS} into words: find's -exec, not an argument"},
		{"Bash(echo:*) Bash(find:*)", `echo -exec; find . "$_" rm -rf x \;`, "a quoted expansion can be -exec too"},
	} {
		p := Policy{Allow: mustRules(t, c.rules)}
		req := call("Bash", mustJSONString(t, map[string]string{"command": c.line}))
		if d, decided := p.Decide(req, nil); decided {
			t.Errorf("%s: %q decided %+v; want it asked (%s)", c.rules, c.line, d, c.how)
		}
	}
	// What stays allowed: tests that evaluate nothing.
	for _, line := range []string{"[[ -v HOME ]] && git status", "[[ 1 -eq 1 ]] && git status", "[[ -n $x && $x == y ]] && git status", `git status -- x$ "y$" $'z'`} {
		p := Policy{Allow: mustRules(t, "Bash(git status:*)")}
		if d, decided := p.Decide(call("Bash", mustJSONString(t, map[string]string{"command": line})), nil); !decided || !d.Allow {
			t.Errorf("%q: decided %v %+v; want it allowed", line, decided, d)
		}
	}
}
