package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/urfave/cli/v2"
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
	return regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): parse error$`)
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
		if _, err := strconv.ParseFloat(m[1], 64); err == nil {
			return fmt.Sprintf("--%s: %q has no unit; add a unit, for example %sm (or %ss, %sh)", df.Name, m[1], m[1], m[1], m[1]), true
		}
		return fmt.Sprintf("--%s: %q is not a duration; write one with a unit, for example 5m, 30s or 2h", df.Name, m[1]), true
	}
	return "", false
}
