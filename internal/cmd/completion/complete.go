package completion

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
)

// CompleteCommand is the hidden command the shell scripts call: its
// arguments are the words after "askuser" up to the one being completed
// (the last, "" for a new word), and it prints one candidate a line,
// "value<TAB>description" where there is one to give, or the single line
// ":files" when the shell should complete file names. Flags are not
// parsed (SkipFlagParsing), and interspersed leaves the words as they
// are: they are text to complete, not options.
const CompleteCommand = "__complete"

// FilesMarker asks the shell for file-name completion.
const FilesMarker = ":files"

// CompleteOptions are askuser __complete's arguments.
type CompleteOptions struct {
	Factory *cmdutil.Factory
	// App is the application whose commands are completed.
	App *cli.App
	// Words are the words after "askuser" up to the one being completed.
	Words []string
}

// NewCmdComplete is askuser __complete. It completes the commands of the
// application it runs in (c.App): the one tree of commands and flags that
// help reads too. runF, when not nil, is called with the options instead
// of completing (a test's).
func NewCmdComplete(f *cmdutil.Factory, runF func(*CompleteOptions) error) *cli.Command {
	return &cli.Command{
		Name:            CompleteCommand,
		Hidden:          true,
		SkipFlagParsing: true,
		HideHelp:        true, // "help" and "--help" are words to complete
		Action: func(c *cli.Context) error {
			opts := &CompleteOptions{Factory: f, App: c.App, Words: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return completeRun(opts)
		},
	}
}

func completeRun(opts *CompleteOptions) error {
	for _, cand := range complete(opts.App, opts.Words, opts.Factory) {
		fmt.Fprintln(opts.Factory.IOStreams.Out, cand)
	}
	return nil
}

// Flags whose value is a file or a directory (--mcp-config takes inline
// JSON too, but a file is what a shell can help with).
var fileFlags = map[string]bool{"answers": true, "script": true, "state-dir": true, "mcp-config": true, "token-file": true}

// complete returns the candidates for the last of words, the word being
// completed, given the words before it.
func complete(app *cli.App, words []string, f *cmdutil.Factory) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	// bash splits --flag=value at "=": the words end "--flag", "=", and
	// the value (or "=" itself when nothing follows it yet).
	if cur == "=" && len(before) > 0 {
		return filter(valuesOf(app, before, before[len(before)-1], f), "")
	}
	if len(before) >= 2 && before[len(before)-1] == "=" {
		return filter(valuesOf(app, before, before[len(before)-2], f), cur)
	}
	// zsh and fish keep --flag=value as one word.
	if name, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(name, "--") {
		var out []string
		for _, v := range filter(valuesOf(app, before, name, f), value) {
			if v == FilesMarker {
				return []string{FilesMarker} // the shell keeps the "--flag=" part
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
			return filter(valuesOf(app, before, prev, f), cur)
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
		return filter(sessionIDs(before, f, idsWaiting), cur)
	case "sessions rm":
		return filter(notTyped(sessionIDs(before, f, idsAll), before), cur)
	case "channels test":
		if len(args(before)) > 2 {
			return nil // it takes one
		}
		return filter(channelwire.Names(), cur)
	case "completion":
		return filter(shells, cur)
	case "help":
		return filter(helpTopics(app, args(before)[1:]), cur)
	case "ask":
		return []string{FilesMarker}
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
func valuesOf(app *cli.App, words []string, flag string, f *cmdutil.Factory) []string {
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
		return sessionIDs(words, f, idsNotWaiting)
	case fileFlags[name]:
		return []string{FilesMarker}
	}
	// The values the command's parser accepts, from the flag itself.
	return cmdutil.ChoicesOf(flags, name)
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
func sessionIDs(words []string, f *cmdutil.Factory, kind int) []string {
	dir := ""
	for i, w := range words {
		if v, ok := strings.CutPrefix(w, "--state-dir="); ok {
			dir = v
		} else if w == "--state-dir" && i+1 < len(words) {
			dir = words[i+1]
		}
	}
	if dir == "" {
		dir = f.Getenv("ASKUSER_STATE_DIR")
	}
	store, err := f.StoreAt(dir, f.Getenv(cmdutil.StoreEnv), cmdutil.StoreEnv)
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
		if c == FilesMarker || strings.HasPrefix(value, prefix) {
			out = append(out, c)
		}
	}
	return out
}
