package cmdutil

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// Interspersed moves the flags that follow a command's arguments in front
// of them, so "askuser resume ID --answers f.yaml" works as people type it:
// urfave/cli v2 stops reading flags at the first argument. A subcommand
// ("askuser sessions prune --older-than 7d") gets the same for its own
// flags. Everything after "--" stays an argument.
//
// Completion is left alone: the words after "askuser __complete" are text
// to complete, flags and all (that command parses no flags), and
// urfave/cli's own completion needs --generate-bash-completion last and
// no "--" inserted.
func Interspersed(app *cli.App, args []string) []string {
	if n := len(args); n > 0 && args[n-1] == "--generate-bash-completion" {
		return args
	}
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil || cmd.SkipFlagParsing {
		return args
	}
	return append(append([]string{}, args[:i+1]...), intersperse(cmd, args[i+1:])...)
}

// intersperse puts cmd's flags among tail before its arguments. When the
// first argument names a subcommand, what follows it is the subcommand's.
func intersperse(cmd *cli.Command, tail []string) []string {
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, rest []string
	for j := 0; j < len(tail); j++ {
		a := tail[j]
		switch {
		case a == "--":
			rest = append(rest, tail[j:]...)
			j = len(tail)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && j+1 < len(tail) {
				j++
				flags = append(flags, tail[j])
			}
		default:
			if sub := cmd.Command(a); sub != nil && len(rest) == 0 {
				return append(append(flags, a), intersperse(sub, tail[j+1:])...)
			}
			rest = append(rest, a)
		}
	}
	out := flags
	if len(rest) > 0 && rest[0] != "--" && len(flags) > 0 {
		out = append(out, "--")
	}
	return append(out, rest...)
}
