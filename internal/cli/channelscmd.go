package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// checkTimeout bounds askuser channels test.
const checkTimeout = 30 * time.Second

func channelsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "channels",
		Usage: "list the chat channels and whether they are set up; test one",
		Description: `Lists the chat channels askuser knows (Slack, Telegram, WhatsApp), whether this
askuser has each built in, and whether it is configured: its destination set. Settings come
from flags, then the environment, then the channels file ($XDG_CONFIG_HOME/askuser/channels.env,
or ASKUSER_CHANNELS_FILE), which must be mode 0600; tokens are read from the environment or
that file only.

  askuser channels test slack   checks the settings against the platform and sends a sample question`,
		HideHelpCommand: true,
		Subcommands:     []*cli.Command{channelsTestCommand(e)},
		Action:          func(c *cli.Context) error { return listChannels(c, e) },
	}
}

func channelsTestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "check a channel's settings against the platform and send a sample question",
		ArgsUsage: "NAME",
		Description: `Reads the channel's settings as askuser run --frontend NAME would, checks them against
the platform and sends a sample question to the destination. One line says the result, or
what failed: a bad token, a missing scope, an unknown destination, a bot the user never
started. Exit 0 when it worked, 2 when a setting is missing, 1 when the platform refused.`,
		Flags:  channelFlags(),
		Action: func(c *cli.Context) error { return testChannel(c, e) },
	}
}

func listChannels(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		use := "use channels, or channels test NAME"
		if s := didYouMean(nearest(c.Args().First(), []string{"test"})); s != "" {
			use = s + " (" + use + ")"
		}
		return usageErrorf("channels: unknown subcommand %s; %s", ask.Excerpt(c.Args().First()), use)
	}
	src, err := channelSources(nil, e)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(e.ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tBUILT IN\tCONFIGURED")
	for _, s := range channel.Specs() {
		built, set := "no", "no"
		if s.New != nil {
			built = "yes"
		}
		if s.Configured(src) {
			set = "yes (" + s.Dest.Env + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", s.Name, built, set)
	}
	return w.Flush()
}

func testChannel(c *cli.Context, e *env) error {
	if c.NArg() != 1 {
		return usageErrorf("channels test takes one channel name (%s), got %d arguments", strings.Join(knownChannels(), ", "), c.NArg())
	}
	name := c.Args().First()
	src, err := channelSources(c, e)
	if err != nil {
		return err
	}
	s, err := buildChannel(name, src)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Context, checkTimeout)
	defer cancel()
	if err := s.Channel.Check(ctx); err != nil {
		return fmt.Errorf("%s: %s", name, oneLine(err.Error()))
	}
	fmt.Fprintf(e.ios.Out, "%s: ok: the settings work and a sample question was sent\n", name)
	return nil
}

// oneLine joins a message's lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
