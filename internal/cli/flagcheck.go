package cli

import (
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
