package cmdutil

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/textdist"
)

// Nearest returns the candidates a mistyped word most likely meant: those
// it is a prefix of ("on" for on-timeout and on-unanswered), else, for a
// word of two letters or more, those at the smallest edit distance, if
// that is small for their length (one edit up to four letters, two
// beyond). It returns nil rather than guess at something far.
func Nearest(typed string, candidates []string) []string {
	var prefixed []string
	for _, c := range candidates {
		if strings.HasPrefix(c, typed) && c != typed && !slices.Contains(prefixed, c) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) > 0 && len(prefixed) <= 3 {
		return prefixed
	}
	if len([]rune(typed)) < 2 {
		return nil
	}
	best, out := 3, []string(nil)
	n := len([]rune(typed))
	for _, c := range candidates {
		limit := 2
		if len([]rune(c)) <= 4 {
			limit = 1
		}
		if abs(n-len([]rune(c))) > limit {
			continue // at least that many edits apart: not worth the table (a 100 KB word)
		}
		d := textdist.Distance(typed, c)
		switch {
		case d > limit || d > best || slices.Contains(out, c):
		case d < best:
			best, out = d, []string{c}
		default:
			out = append(out, c)
		}
	}
	if len(out) > 3 {
		return nil
	}
	return out
}

func abs(n int) int { return max(n, -n) }

// DidYouMean words the suggestions: "did you mean run?", or "" for none.
func DidYouMean(suggestions []string) string {
	if len(suggestions) == 0 {
		return ""
	}
	return "did you mean " + OrList(suggestions) + "?"
}

// flagNames are the names of the visible flags among flags.
func flagNames(flags []cli.Flag) []string {
	var out []string
	for _, f := range flags {
		if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
			continue
		}
		out = append(out, f.Names()...)
	}
	return out
}

// dashed is a flag's name as typed: -f, --frontend.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownFlag words the usage error for a flag cmd does not define, typed
// as name (without its dashes): the nearest of cmd's own flags, or else
// the commands that have it.
func unknownFlag(app *cli.App, cmd *cli.Command, name string) error {
	help := cmd.HelpName
	if utf8.RuneCountInString(name) > ask.ExcerptChars {
		return UsageErrorf("flag provided but not defined: %s; run %s --help for usage", ask.Excerpt("-"+name), help)
	}
	var near []string
	for _, n := range Nearest(name, flagNames(cmd.Flags)) {
		near = append(near, dashed(n))
	}
	if s := DidYouMean(near); s != "" {
		return UsageErrorf("flag provided but not defined: -%s; %s (run %s --help for usage)", name, s, help)
	}
	if owners := commandsWithFlag(app, name); len(owners) > 0 && help != app.Name {
		return UsageErrorf("flag provided but not defined: -%s; %s is a flag of askuser %s, not of %s (run %s --help for usage)",
			name, dashed(name), OrList(owners), help, help)
	}
	return UsageErrorf("flag provided but not defined: -%s; run %s --help for usage", name, help)
}

// commandsWithFlag lists the visible commands that define flag name.
func commandsWithFlag(app *cli.App, name string) []string {
	var out []string
	for _, c := range app.Commands {
		if c.Hidden {
			continue
		}
		for _, f := range c.Flags {
			if slices.Contains(f.Names(), name) {
				out = append(out, c.Name)
				break
			}
		}
	}
	return out
}

// UnknownCommand words the usage error for a command name askuser does not
// have; see is where the commands are listed.
func UnknownCommand(cmds []*cli.Command, name, see string) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	near := Nearest(name, names)
	if name == "version" {
		near = []string{"--version"} // gh has a version command; askuser has the flag alone
	}
	if s := DidYouMean(near); s != "" {
		return UsageErrorf("unknown command %s; %s (run %s to see the commands)", ask.Excerpt(name), s, see)
	}
	return UsageErrorf("unknown command %s; run %s to see the commands", ask.Excerpt(name), see)
}

// undefinedFlag extracts the flag name from the flag package's error for
// an undefined flag.
func undefinedFlag(err error) (string, bool) {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	return name, ok && name != ""
}
