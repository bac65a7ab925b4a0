package shellread

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// git runs commands its configuration names: an alias that starts with !
// (git -c alias.x='!rm -rf y' x), core.pager, core.sshCommand,
// core.fsmonitor, diff.external, a credential helper, and options that
// are commands (rebase --exec, bisect run, submodule foreach). Deny and
// ask rules read each of them as code where it is written out; one not
// written out hides what it runs. Configuration set for the call (git -c)
// means no allow rule with a specifier covers the line, as a variable set
// for a command does not. Configuration already in a file is a file, as
// a script is: not read.

// gitCodeOptions are the options of git's commands whose value is run.
var gitCodeOptions = map[string][]string{
	"rebase":        {"-x", "--exec"},
	"difftool":      {"-x", "--extcmd"},
	"filter-branch": {"--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"},
	"clone":         {"-u", "--upload-pack"},
	"fetch":         {"--upload-pack"},
	"pull":          {"--upload-pack"},
	"ls-remote":     {"--upload-pack"},
	"push":          {"--receive-pack", "--exec"},
	"archive":       {"--exec"},
	"grep":          {"-O", "--open-files-in-pager"},
	"send-email":    {"--to-cmd", "--cc-cmd", "--sendmail-cmd", "--header-cmd"},
	"instaweb":      {"--httpd"},
}

// gitCode reads git: its own options, then its command's.
func gitCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	i := 1
	for ; i < len(ws); i++ {
		w := ws[i]
		if !w.literal {
			a.stop("it gives git a word not written out (" + clip(w.text) + ") before its command, which may set configuration that runs commands")
			return
		}
		switch v := w.value; {
		case v == "-c":
			i++
			if i >= len(ws) {
				a.stop("it runs git -c with no configuration written out: it comes from elsewhere (xargs's input)")
				return
			}
			a.gitConfig(ws[i])
		case v == "--config-env" || strings.HasPrefix(v, "--config-env="):
			a.stop("it sets git configuration from the environment (" + clip(v) + "), which can run commands no rule sees")
			return
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--super-prefix":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			a.gitCommand(ws[i:], redirs)
			return
		}
	}
}

// gitConfig reads a name=value set for the call by git -c or clone -c.
func (a *shellReader) gitConfig(w word) {
	a.uncover("it sets git configuration for the call (git -c), which can run commands (alias.x=!…, core.pager)")
	if !w.literal {
		if w.code != "" {
			a.denyCode(w.code)
		}
		a.stop("it sets git configuration not written out (" + clip(w.text) + "), which can run commands no rule sees")
		return
	}
	if _, value, ok := strings.Cut(w.value, "="); ok {
		a.denyCode(strings.TrimPrefix(value, "!"))
	}
}

// gitCommand reads a git command and its options: values that are run,
// configuration written, a command run by bisect or submodule.
func (a *shellReader) gitCommand(ws []word, redirs []*syntax.Redirect) {
	sub := ws[0].value
	opts := gitCodeOptions[sub]
	args := 0 // words after the command that are no option
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		v := w.value
		if !w.literal {
			if sub == "config" && args >= 1 {
				a.gitConfigValue(w)
			}
			args++
			continue
		}
		if name, value, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "--") && containsString(opts, name) {
			a.codeWord(literalWord(value), "git "+sub+" "+name)
			continue
		}
		switch {
		case containsString(opts, v) || (sub == "clone" && (v == "-c" || v == "--config")):
			i++
			if i >= len(ws) {
				a.stop("it runs git " + sub + " " + v + " with no value written out: it comes from elsewhere (xargs's input)")
				return
			}
			if v == "-c" || v == "--config" {
				a.gitConfig(ws[i])
			} else {
				a.codeWord(ws[i], "git "+sub+" "+v)
			}
		case len(v) > 2 && containsString(opts, v[:2]):
			a.codeWord(literalWord(v[2:]), "git "+sub+" "+v[:2]) // -Ocmd, -xcmd
		case strings.HasPrefix(v, "-"):
		case sub == "bisect" && v == "run" && args == 0:
			a.simple(ws[i+1:], redirs)
			return
		case sub == "submodule" && v == "foreach":
			rest := ws[i+1:]
			for len(rest) > 0 && rest[0].literal && strings.HasPrefix(rest[0].value, "--") {
				rest = rest[1:]
			}
			a.uncover("it runs a string as shell code (git submodule foreach)")
			a.joinedCode(rest, "git submodule foreach")
			return
		default:
			if sub == "config" && args >= 1 {
				a.gitConfigValue(w)
			}
			args++
		}
	}
}

// gitConfigValue reads a value git config writes: it may be run later
// (an alias's !command, a pager).
func (a *shellReader) gitConfigValue(w word) {
	if w.literal {
		a.denyCode(strings.TrimPrefix(w.value, "!"))
		return
	}
	a.codeWord(w, "git config")
}

// gitConfigList reads GIT_CONFIG_PARAMETERS, git's own list of -c
// settings: 'name=value' words, quoted as the shell quotes them.
func (a *shellReader) gitConfigList(v string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(v), "")
	if err != nil || len(f.Stmts) != 1 {
		a.stop("it sets GIT_CONFIG_PARAMETERS to a list askuser cannot read, which can run commands no rule sees")
		return
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		a.stop("it sets GIT_CONFIG_PARAMETERS to a list askuser cannot read, which can run commands no rule sees")
		return
	}
	for _, w := range call.Args {
		a.gitConfig(readWord(w))
	}
}
