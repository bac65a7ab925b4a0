// Package completion is askuser completion, which prints the shell
// completion script for bash, zsh or fish, and the hidden askuser
// __complete those scripts call (complete.go). Completion reads the
// commands, their flags and the values a flag accepts from the running
// application's own tree (cmdutil.ChoiceFlag), the one place help reads
// them from too, so it never offers what a command refuses.
package completion

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
)

// Options are askuser completion's arguments.
type Options struct {
	Factory *cmdutil.Factory
	// Args are the arguments: the shell.
	Args []string
}

// NewCmdCompletion is askuser completion. runF, when not nil, is called
// with the options instead of printing (a test's).
func NewCmdCompletion(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: `Prints a script that completes askuser's commands, flags, flag values (frontend,
provider, formats, policies, files), session ids (those waiting on a question or an
approval for askuser resume and cancel, every one for sessions rm) and channel names. The
bash script needs no bash-completion package.`,
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return completionRun(opts)
		},
	}
}

func completionRun(opts *Options) error {
	if len(opts.Args) != 1 {
		return cmdutil.UsageErrorf("completion takes one shell: bash, zsh or fish")
	}
	script, ok := completionScripts[opts.Args[0]]
	if !ok {
		return cmdutil.UsageErrorf("completion: %s is not a shell askuser completes; use bash, zsh or fish", ask.Excerpt(opts.Args[0]))
	}
	_, err := fmt.Fprint(opts.Factory.IOStreams.Out, script)
	return err
}

// The shells the completion command knows, for its own completion.
var shells = []string{"bash", "zsh", "fish"}

// completionScripts call `askuser __complete WORDS...` with the words up
// to the cursor, and offer what it prints. The command is run as typed
// (the first word), so ./askuser completes too.
var completionScripts = map[string]string{
	"bash": `# bash completion for askuser (needs no bash-completion package).
# This shell:  source <(askuser completion bash)
# Every shell: add that line to ~/.bashrc
_askuser() {
    local cur="${COMP_WORDS[COMP_CWORD]}" out line
    out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
    [[ $cur == "=" ]] && cur=""
    COMPREPLY=()
    if [[ $out == ":files" ]]; then
        while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
        compopt -o filenames 2>/dev/null
        return 0
    fi
    while IFS= read -r line; do
        [[ -n $line ]] && COMPREPLY+=("${line%%$'\t'*}")
    done <<< "$out"
}
complete -F _askuser askuser
`,
	"zsh": `#compdef askuser
# zsh completion for askuser.
# This shell:  source <(askuser completion zsh)
# Every shell: askuser completion zsh > "${fpath[1]}/_askuser" (then start a new shell)
_askuser() {
    local -a lines cands
    lines=("${(@f)$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    if [[ ${lines[1]} == ":files" ]]; then
        compset -P '*='
        _files
        return
    fi
    local l
    for l in $lines; do
        [[ -n $l ]] && cands+=("${${l%%$'\t'*}//:/\\:}:${l#*$'\t'}")
    done
    _describe -t values askuser cands
}
compdef _askuser askuser
`,
	"fish": `# fish completion for askuser.
# This shell:  askuser completion fish | source
# Every shell: askuser completion fish > ~/.config/fish/completions/askuser.fish
function __askuser_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out ($words[1] __complete $words[2..-1] 2>/dev/null)
    if test "$out" = ":files"
        set -l tok (commandline -ct)
        set -l pre (string match -r -- '^--[^=]*=' $tok)
        for p in (__fish_complete_path (string replace -r -- '^--[^=]*=' '' $tok))
            printf '%s%s\n' "$pre" $p
        end
        return
    end
    printf '%s\n' $out
end
complete -c askuser -f -a '(__askuser_complete)'
`,
}
