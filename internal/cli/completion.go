package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
)

// completeCommand is the hidden command the shell scripts call: its
// arguments are the words after "askuser" up to the one being completed
// (the last, "" for a new word), and it prints one candidate a line,
// "value<TAB>description" where there is one to give, or the single line
// ":files" when the shell should complete file names. Flags are not
// parsed (SkipFlagParsing), and interspersed leaves the words as they
// are: they are text to complete, not options.
const completeCommand = "__complete"

// filesMarker asks the shell for file-name completion.
const filesMarker = ":files"

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: `Prints a script that completes askuser's commands, flags, flag values (frontend,
provider, formats, policies, files), session ids (those waiting on a question or an
approval for askuser resume and cancel, every one for sessions rm) and channel names. The
bash script needs no bash-completion package.`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("completion takes one shell: bash, zsh or fish")
			}
			script, ok := completionScripts[c.Args().First()]
			if !ok {
				return usageErrorf("completion: %s is not a shell askuser completes; use bash, zsh or fish", ask.Excerpt(c.Args().First()))
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}

func completeCmd(e *env) *cli.Command {
	return &cli.Command{
		Name:            completeCommand,
		Hidden:          true,
		SkipFlagParsing: true,
		HideHelp:        true, // "help" and "--help" are words to complete
		Action: func(c *cli.Context) error {
			for _, cand := range complete(c.App, c.Args().Slice(), e) {
				fmt.Fprintln(c.App.Writer, cand)
			}
			return nil
		},
	}
}

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

// Flags whose value is a file or a directory (--mcp-config takes inline
// JSON too, but a file is what a shell can help with).
var fileFlags = map[string]bool{"answers": true, "script": true, "state-dir": true, "mcp-config": true, "token-file": true}

// The shells the completion command knows, for its own completion.
var shells = []string{"bash", "zsh", "fish"}

// complete returns the candidates for the last of words, the word being
// completed, given the words before it.
func complete(app *cli.App, words []string, e *env) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	// bash splits --flag=value at "=": the words end "--flag", "=", and
	// the value (or "=" itself when nothing follows it yet).
	if cur == "=" && len(before) > 0 {
		return filter(valuesOf(app, before, before[len(before)-1], e), "")
	}
	if len(before) >= 2 && before[len(before)-1] == "=" {
		return filter(valuesOf(app, before, before[len(before)-2], e), cur)
	}
	// zsh and fish keep --flag=value as one word.
	if name, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(name, "--") {
		var out []string
		for _, v := range filter(valuesOf(app, before, name, e), value) {
			if v == filesMarker {
				return []string{filesMarker} // the shell keeps the "--flag=" part
			}
			out = append(out, name+"="+v)
		}
		return out
	}
	cmd := commandOf(app, before)
	if cmd == nil {
		if strings.HasPrefix(cur, "-") {
			return filter([]string{"--help", "--version"}, cur)
		}
		return filter(commandNames(app), cur)
	}
	if len(before) > 0 {
		if prev := before[len(before)-1]; strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && takesValue(cmd, prev) {
			return filter(valuesOf(app, before, prev, e), cur)
		}
	}
	if strings.HasPrefix(cur, "-") {
		var names []string
		for _, f := range cmd.VisibleFlags() {
			names = append(names, "--"+f.Names()[0])
		}
		return filter(append(names, "--help"), cur)
	}
	if len(cmd.Subcommands) > 0 {
		return filter(names(cmd.Subcommands), cur)
	}
	switch commandPath(app, before) {
	case "resume", "cancel":
		return filter(sessionIDs(before, e, idsWaiting), cur)
	case "sessions rm":
		return filter(notTyped(sessionIDs(before, e, idsAll), before), cur)
	case "channels test":
		if len(args(before)) > 2 {
			return nil // it takes one
		}
		return filter(channelNames(), cur)
	case "completion":
		return filter(shells, cur)
	case "help":
		return filter(helpTopics(app, args(before)[1:]), cur)
	case "ask":
		return []string{filesMarker}
	}
	return nil
}

// args are the words that are not flags.
func args(words []string) []string {
	var out []string
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			out = append(out, w)
		}
	}
	return out
}

// helpTopics is what may follow "askuser help" and the command words
// typed after it: the commands, or the named command's subcommands.
func helpTopics(app *cli.App, typed []string) []string {
	if len(typed) == 0 {
		return commandNames(app)
	}
	if cmd := commandOf(app, typed); cmd != nil {
		return names(cmd.Subcommands)
	}
	return nil
}

// notTyped drops the candidates already among words.
func notTyped(cands, words []string) []string {
	var out []string
	for _, c := range cands {
		if value, _, _ := strings.Cut(c, "\t"); !slices.Contains(words, value) {
			out = append(out, c)
		}
	}
	return out
}

// commandOf is the command named in words (the first word that is not a
// flag), or its subcommand named by the next such word, and so on; nil
// when words name none.
func commandOf(app *cli.App, words []string) *cli.Command {
	cmd, _ := walkCommands(app, words)
	return cmd
}

// commandPath names the command words name, after its parents ("sessions
// rm"); "" when they name none.
func commandPath(app *cli.App, words []string) string {
	_, path := walkCommands(app, words)
	return strings.Join(path, " ")
}

// walkCommands follows words' command names down the tree: the last
// command found, and the names that led to it.
func walkCommands(app *cli.App, words []string) (*cli.Command, []string) {
	var cmd *cli.Command
	var path []string
	for _, w := range args(words) {
		var next *cli.Command
		if cmd == nil {
			next = app.Command(w)
		} else {
			next = cmd.Command(w)
		}
		if next == nil {
			break
		}
		cmd, path = next, append(path, w)
	}
	return cmd, path
}

func commandNames(app *cli.App) []string { return names(app.Commands) }

// names lists the visible commands as "name<TAB>usage".
func names(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, c.Name+"\t"+c.Usage)
		}
	}
	return out
}

// takesValue reports whether flag (as typed, "--frontend" or "-f") is
// one of cmd's flags that takes a value.
func takesValue(cmd *cli.Command, flag string) bool {
	name := strings.TrimLeft(flag, "-")
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}

// valuesOf is what may follow flag (as typed): a few fixed values,
// session ids, or file names.
func valuesOf(app *cli.App, words []string, flag string, e *env) []string {
	name := strings.TrimLeft(flag, "-")
	var flags []cli.Flag
	if cmd := commandOf(app, words); cmd != nil {
		flags = cmd.Flags
		for _, f := range flags {
			if slices.Contains(f.Names(), name) {
				name = f.Names()[0] // -f is --frontend
			}
		}
	}
	switch {
	case name == "resume":
		return sessionIDs(words, e, idsNotWaiting)
	case fileFlags[name]:
		return []string{filesMarker}
	}
	// The values the command's parser accepts, from the flag itself.
	return choicesOf(flags, name)
}

// Which sessions sessionIDs lists.
const (
	idsWaiting    = iota // waiting on an answer: askuser resume, cancel
	idsNotWaiting        // askuser run --resume
	idsAll               // askuser sessions rm
)

// sessionIDs lists sessions as "id<TAB>status: first prompt", those of
// kind (idsWaiting: each saying on what it waits, "waiting on an approval
// of mcp__fs__write_file"). The state directory is the one the words
// name with --state-dir, else the environment's.
func sessionIDs(words []string, e *env, kind int) []string {
	dir := ""
	for i, w := range words {
		if v, ok := strings.CutPrefix(w, "--state-dir="); ok {
			dir = v
		} else if w == "--state-dir" && i+1 < len(words) {
			dir = words[i+1]
		}
	}
	if dir == "" {
		dir = e.getenv("ASKUSER_STATE_DIR")
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
	defer cancel()
	store, err := sessionStoreAt(dir, e.getenv(storeEnv), storeEnv, e, storeOpening{ctx: ctx, interrupt: context.Background()})
	if err != nil {
		return nil
	}
	list, err := store.List()
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range list {
		if s.Err != "" || kind == idsWaiting && s.Pending == 0 || kind == idsNotWaiting && s.Pending > 0 {
			continue
		}
		prompt := []rune(ask.Display(s.FirstPrompt))
		if len(prompt) > 60 {
			prompt = append(prompt[:59], '…')
		}
		out = append(out, s.ID+"\t"+s.StatusWords()+": "+string(prompt))
	}
	return out
}

// filter keeps the candidates that start with prefix (the value, before
// any tab). The file marker always passes.
func filter(cands []string, prefix string) []string {
	var out []string
	for _, c := range cands {
		value, _, _ := strings.Cut(c, "\t")
		if c == filesMarker || strings.HasPrefix(value, prefix) {
			out = append(out, c)
		}
	}
	return out
}
