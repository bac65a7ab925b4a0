package cmdutil

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
)

// OnUsageError is every command's urfave/cli OnUsageError: a flag's
// value or name that does not parse is a usage error (exit 2) that says
// what to write instead.
func OnUsageError(c *cli.Context, err error, _ bool) error {
	if msg, ok := badValueUsage(c, err); ok {
		return UsageErrorf("%s", msg)
	}
	if name, ok := undefinedFlag(err); ok {
		return unknownFlag(c.App, c.Command, name)
	}
	return UsageErrorf("%s; run %s --help for usage", flagParseError(err), c.Command.HelpName)
}

// flagParseError is the flag parser's error with the value it quotes cut
// to ask.Excerpt: the parser quotes it whole.
func flagParseError(err error) string {
	if m := badFlagValue().FindStringSubmatch(err.Error()); m != nil {
		return fmt.Sprintf("invalid value %s for flag -%s: %s", ask.Excerpt(flagValue(m[1])), m[2], m[3])
	}
	return err.Error()
}

// CheckDurations refuses a negative value for any duration flag of the
// command. urfave/cli parses "-5s" happily, and a negative timeout would
// otherwise read as no timeout at all. It runs before every command, so a
// duration flag added later is checked without being listed here.
func CheckDurations(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		df, ok := f.(*cli.DurationFlag)
		if !ok || !c.IsSet(df.Name) {
			continue
		}
		if d := c.Duration(df.Name); d < 0 {
			return UsageErrorf("--%s: %s is negative; give a positive duration such as 30s or 5m", df.Name, d)
		}
	}
	return nil
}

// badFlagValue is how the flag package reports a value it cannot parse
// (compiled on first use, not at every start).
var badFlagValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): (parse error|value out of range)$`)
})

// badValueUsage words a flag's unparsable value where the flag package's
// own words ("parse error", the flag named with one dash) say nothing of
// what to write: a duration's or a whole number's.
func badValueUsage(c *cli.Context, err error) (string, bool) {
	m := badFlagValue().FindStringSubmatch(err.Error())
	if m == nil || c == nil || c.Command == nil {
		return "", false
	}
	v := flagValue(m[1])
	for _, f := range c.Command.Flags {
		if !slices.Contains(f.Names(), m[2]) {
			continue
		}
		switch f := f.(type) {
		case *cli.DurationFlag:
			return durationUsage(f.Name, v), true
		case *cli.IntFlag:
			return numberUsage(f, v, m[3] == "value out of range"), true
		}
	}
	return "", false
}

// durationUsage: Go's durations need a unit.
func durationUsage(name, v string) string {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		n := UnitExample(v)
		return fmt.Sprintf("--%s: %s has no unit; add a unit, for example %sm (or %ss, %sh)", name, ask.Excerpt(v), n, n, n)
	}
	return fmt.Sprintf("--%s: %s is not a duration; write one with a unit, for example 5m, 30s or 2h", name, ask.Excerpt(v))
}

// numberUsage offers the flag's default as an example (3 for a
// descriptor, the first a shell leaves free; else 10).
func numberUsage(f *cli.IntFlag, v string, tooLarge bool) string {
	example := "10"
	switch {
	case f.Name == "protocol-fd":
		example = "3"
	case f.Value > 0:
		example = strconv.Itoa(f.Value)
	}
	what := "is not a whole number"
	if tooLarge {
		what = "is too large"
	}
	return fmt.Sprintf("--%s: %s %s; give one such as %s", f.Name, ask.Excerpt(v), what, example)
}

// flagValue is a value as the flag package quoted it in its error (with
// %q), unquoted again so that ask.Excerpt quotes it once.
func flagValue(quoted string) string {
	if v, err := strconv.Unquote(`"` + quoted + `"`); err == nil {
		return v
	}
	return quoted
}

// UnitExample is a number to suggest a unit with: the one given, when it
// is short enough to repeat, else 5.
func UnitExample(n string) string {
	if len(n) > 8 {
		return "5"
	}
	return n
}
