package approval

import "testing"

// A shell reading its code from its input, under whatever name
// (/dev/stdin, /dev/fd/0, -), runs code as bash -c does: no rule for the
// shell covers it, and a deny rule reads the code where it is written.
// Each line below was seen to run the code in bash 5.2.
func TestShellReadingItsInputIsCode(t *testing.T) {
	feed := map[string]string{
		"a here-string":               "bash /dev/stdin <<< 'rm -rf x'",
		"a here-document":             "sh /dev/fd/0 <<'EOF'\nrm -rf x\nEOF",
		"another descriptor":          "bash /dev/fd/3 3<<< 'rm -rf x'",
		"by /proc":                    "bash /proc/self/fd/0 <<< 'rm -rf x'",
		"by a path to be cleaned":     "bash //dev/./stdin <<< 'rm -rf x'",
		"zsh":                         "zsh /dev/stdin <<< 'rm -rf x'",
		"source":                      "source /dev/stdin <<< 'rm -rf x'",
		".":                           ". /dev/fd/0 <<< 'rm -rf x'",
		"- for standard input":        "bash - <<EOF\nrm -rf x\nEOF",
		"relative, after cd /dev":     "cd /dev && bash stdin <<< 'rm -rf x'",
		"relative, after cd /":        "cd / && bash dev/stdin <<< 'rm -rf x'",
		"relative, after cd /dev, .":  "cd /dev && . ./stdin <<< 'rm -rf x'",
		"sudo -D into /dev":           "sudo -D /dev bash stdin <<< 'rm -rf x'",
		"sudo --chdir into /dev/fd":   "sudo --chdir=/dev/fd bash 0 <<< 'rm -rf x'",
		"sudo -D into /proc/self":     "sudo -D/proc/self bash -- fd/0 <<< 'rm -rf x'",
		"through sudo":                "sudo bash /dev/stdin <<< 'rm -rf x'",
		"through nice, -s":            "nice -n 5 bash -s <<< 'rm -rf x'",
		"through env, a here-doc":     "env bash - <<EOF\nrm -rf x\nEOF",
		"through ssh":                 "ssh host bash -s <<< 'rm -rf x'",
		"fed to a block":              "{ bash -s; } <<< 'rm -rf x'",
		"fed to a subshell":           "( sudo sh ) <<< 'rm -rf x'",
		"fed to an if":                "if true; then bash; fi <<< 'rm -rf x'",
		"fed to a loop":               "for i in 1; do sh; done <<EOF\nrm -rf x\nEOF",
		"fed to a function":           "f() { bash -s; }; f <<< 'rm -rf x'",
		"fed to find -exec":           "find . -maxdepth 0 -exec bash -s ';' <<< 'rm -rf x'",
		"by a pipe":                   "echo 'rm -rf x' | bash /dev/stdin",
		"from a file, no script name": "bash < script.sh",
	}
	allow := Policy{Allow: mustRules(t, "Bash(bash:*) Bash(sh:*) Bash(zsh:*) Bash(source:*) Bash(.:*) Bash(cd:*) Bash(echo:*) Bash(sudo:*) Bash(nice:*) Bash(env:*) Bash(ssh:*) Bash(find:*)")}
	deny := Policy{Deny: mustRules(t, "Bash(rm:*)"), Mode: ModeBypass}
	for how, line := range feed {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		if d, decided := allow.Decide(req, nil); decided {
			t.Errorf("%s: %q decided %+v; want it asked", how, line, d)
		}
		if d, decided := deny.Decide(req, nil); how != "by a pipe" && how != "from a file, no script name" && (!decided || d.Allow) {
			t.Errorf("%s: %q under a deny rule for rm decided %v %+v; want it denied", how, line, decided, d)
		}
	}
	// A script file is a command like any other, whatever its input.
	for _, line := range []string{"bash ./build.sh", "bash build.sh <<< 'yes'", "sh scripts/test.sh < /dev/null", "source ./env.sh", ". env.sh", "cd sub && bash ./build.sh", "sudo -D /tmp bash build.sh"} {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		if d, decided := allow.Decide(req, nil); !decided || !d.Allow {
			t.Errorf("%q: decided %v %+v; want it allowed", line, decided, d)
		}
	}
}

// Under bypassPermissions a deny rule is all that stands between a line
// and running: a line that runs rm where the rule cannot see it by name
// (a name not written out, a name changed by alias or hash, code in an
// option's value or a variable that is run) is denied or asked, never
// allowed. Lines that only look alike still run.
func TestDenyRulesSeeRenamedCommands(t *testing.T) {
	deny := Policy{Deny: mustRules(t, "Bash(rm:*)"), Mode: ModeBypass}
	for how, line := range map[string]string{
		"brace expansion":         "{rm,-rf,x}",
		"brace expansion, name":   "rm{,} -rf x",
		"a variable":              "$RM -rf x",
		"a default":               "${x:-rm} -rf x",
		"the arguments":           `set -- rm -rf x; "$@"`,
		"a substitution":          `"$(echo rm)" -rf x`,
		"a variable set first":    "a=rm; $a -rf x",
		"a tilde":                 "~/../../bin/rm -rf x",
		"an alias":                "shopt -s expand_aliases\nalias ls=rm\nls -rf x",
		"an alias with arguments": "alias ll='rm -rf'",
		"hash -p":                 "hash -p /bin/rm ls; ls -rf x",
		"enable -f":               "enable -f ./evil.so ls; ls -rf x",
		"env -S":                  "env -S 'rm -rf x'",
		"env --split-string":      "env --split-string='rm -rf x'",
		"a variable that is run":  "GIT_SSH_COMMAND='rm -rf x' git fetch",
		"PROMPT_COMMAND":          "PROMPT_COMMAND='rm -rf x' bash -i",
		"export":                  "export PAGER='rm -rf x'; git log",
	} {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		if d, decided := deny.Decide(req, nil); decided && d.Allow {
			t.Errorf("%s: %q allowed under a deny rule for rm; want it denied or asked", how, line)
		}
	}
	for _, line := range []string{"hash", "hash make", "alias", "alias ll='ls -l'", "FOO=1 make", "export GOFLAGS='-mod=mod -trimpath'",
		"./scripts/test.sh", "git status {a,b}", "env -u HOME ls", "/bin/l? -d ."} {
		req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
		if d, decided := deny.Decide(req, nil); !decided || !d.Allow {
			t.Errorf("%q: decided %v %+v under a deny rule for rm; want it allowed", line, decided, d)
		}
	}
}
