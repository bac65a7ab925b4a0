package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
)

// checkDurations refuses a negative value for any duration flag of the
// command. urfave/cli parses "-5s" happily, and a negative timeout would
// otherwise read as no timeout at all. It runs before every command, so a
// duration flag added later is checked without being listed here.
func checkDurations(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		df, ok := f.(*cli.DurationFlag)
		if !ok || !c.IsSet(df.Name) {
			continue
		}
		if d := c.Duration(df.Name); d < 0 {
			return usageErrorf("--%s: %s is negative; give a positive duration such as 30s or 5m", df.Name, d)
		}
	}
	return nil
}

// badFlagValue is how the flag package reports a value it cannot parse
// (compiled on first use, not at every start).
var badFlagValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): (parse error|value out of range)$`)
})

// durationUsage words a duration flag's unparsable value: Go's durations
// need a unit, and "parse error" says nothing of that.
func durationUsage(c *cli.Context, err error) (string, bool) {
	m := badFlagValue().FindStringSubmatch(err.Error())
	if m == nil || c == nil || c.Command == nil {
		return "", false
	}
	for _, f := range c.Command.Flags {
		df, ok := f.(*cli.DurationFlag)
		if !ok || !slices.Contains(df.Names(), m[2]) {
			continue
		}
		v := flagValue(m[1])
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			n := unitExample(v)
			return fmt.Sprintf("--%s: %s has no unit; add a unit, for example %sm (or %ss, %sh)", df.Name, ask.Excerpt(v), n, n, n), true
		}
		return fmt.Sprintf("--%s: %s is not a duration; write one with a unit, for example 5m, 30s or 2h", df.Name, ask.Excerpt(v)), true
	}
	return "", false
}

// numberUsage words a whole-number flag's unparsable value: the flag
// package says "parse error" and names the flag with one dash.
func numberUsage(c *cli.Context, err error) (string, bool) {
	m := badFlagValue().FindStringSubmatch(err.Error())
	if m == nil || c == nil || c.Command == nil {
		return "", false
	}
	for _, f := range c.Command.Flags {
		inf, ok := f.(*cli.IntFlag)
		if !ok || !slices.Contains(inf.Names(), m[2]) {
			continue
		}
		example := "10"
		switch {
		case inf.Name == "protocol-fd":
			example = "3" // the first descriptor a shell leaves free
		case inf.Value > 0:
			example = strconv.Itoa(inf.Value)
		}
		what := "is not a whole number"
		if m[3] == "value out of range" {
			what = "is too large"
		}
		return fmt.Sprintf("--%s: %s %s; give one such as %s", inf.Name, ask.Excerpt(flagValue(m[1])), what, example), true
	}
	return "", false
}

// flagValue is a value as the flag package quoted it in its error (with
// %q), unquoted again so that ask.Excerpt quotes it once.
func flagValue(quoted string) string {
	if v, err := strconv.Unquote(`"` + quoted + `"`); err == nil {
		return v
	}
	return quoted
}

// unitExample is a number to suggest a unit with: the one given, when it
// is short enough to repeat, else 5.
func unitExample(n string) string {
	if len(n) > 8 {
		return "5"
	}
	return n
}
