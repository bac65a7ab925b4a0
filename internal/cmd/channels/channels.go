// Package channels is askuser channels: it lists the chat channels askuser
// knows, whether this askuser has each built in and whether it is set up;
// its subcommand test checks one's settings against the platform and
// sends a sample question. The channels' wiring is internal/channelwire's.
package channels

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
)

// checkTimeout bounds askuser channels test.
const checkTimeout = 30 * time.Second

// Options are askuser channels' arguments.
type Options struct {
	Factory *cmdutil.Factory
	Args    []string
}

// NewCmdChannels is askuser channels, with its subcommand test. runF, when
// not nil, is called with the options instead of listing (a test's).
func NewCmdChannels(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
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
		Subcommands:     []*cli.Command{NewCmdTest(f, nil)},
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
}

func listRun(opts *Options) error {
	if len(opts.Args) > 0 {
		use := "use channels, or channels test NAME"
		if s := cmdutil.DidYouMean(cmdutil.Nearest(opts.Args[0], []string{"test"})); s != "" {
			use = s + " (" + use + ")"
		}
		return cmdutil.UsageErrorf("channels: unknown subcommand %s; %s", ask.Excerpt(opts.Args[0]), use)
	}
	src, err := channelwire.Sources(opts.Factory, nil)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(opts.Factory.IOStreams.Out, 0, 0, 2, ' ', 0)
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

// TestOptions are askuser channels test's flags and arguments.
type TestOptions struct {
	Factory *cmdutil.Factory
	Context context.Context
	// Channels are the channels' flags, by name.
	Channels map[string]string
	Args     []string
}

// NewCmdTest is askuser channels test. runF, when not nil, is called with
// the options instead of testing (a test's).
func NewCmdTest(f *cmdutil.Factory, runF func(*TestOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "check a channel's settings against the platform and send a sample question",
		ArgsUsage: "NAME",
		Description: `Reads the channel's settings as askuser run --frontend NAME would, checks them against
the platform and sends a sample question to the destination. One line says the result, or
what failed: a bad token, a missing scope, an unknown destination, a bot the user never
started. Exit 0 when it worked, 2 when a setting is missing, 1 when the platform refused.`,
		Flags: channelwire.Flags(),
		Action: func(c *cli.Context) error {
			opts := &TestOptions{Factory: f, Context: c.Context, Channels: channelwire.ReadFlags(c), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return testRun(opts)
		},
	}
}

func testRun(opts *TestOptions) error {
	if len(opts.Args) != 1 {
		return cmdutil.UsageErrorf("channels test takes one channel name (%s), got %d arguments", strings.Join(channelwire.Known(), ", "), len(opts.Args))
	}
	name := opts.Args[0]
	src, err := channelwire.Sources(opts.Factory, opts.Channels)
	if err != nil {
		return err
	}
	s, err := channelwire.Build(name, src)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(opts.Context, checkTimeout)
	defer cancel()
	if err := s.Channel.Check(ctx); err != nil {
		return fmt.Errorf("%s: %s", name, oneLine(err.Error()))
	}
	fmt.Fprintf(opts.Factory.IOStreams.Out, "%s: ok: the settings work and a sample question was sent\n", name)
	return nil
}

// oneLine joins a message's lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
