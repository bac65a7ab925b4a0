package bridge

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/mcp"
)

// FlagsFor are the flags of askuser mcp (server) and askuser hook: the
// frontend flags of askuser ask as a, where standard input is not the
// person's (it carries MCP, or the hook event), so stdio is not offered
// and the person is reached at /dev/tty.
func FlagsFor(a chooser.Asking, server bool) []cli.Flag {
	return append(chooser.FrontendFlags(a), cmdutil.StateDirFlag(), cmdutil.StoreFlag(),
		askTimeoutFlag(server),
		cmdutil.OnTimeoutFlag("when --ask-timeout passes: error (report that nobody answered), auto (take the recommended options, marked as such; never approves a tool) "+
			"or suspend (the call waits for a late answer in an askuser session, which askuser resume ID continues: Claude Code defers the very call; "+
			"a Codex call's session is continued with the answer; other hosts' model is told the question waits)",
			ask.PolicyError, ask.PolicyAuto, ask.PolicySuspend),
		&cli.StringFlag{Name: "name", Value: "askuser", Usage: "the `NAME` the host knows askuser's MCP server by, so mcp__NAME__AskUserQuestion is recognised as askuser's own"},
	)
}

// askTimeoutFlag is --ask-timeout of askuser mcp (server) or askuser hook.
// Its default is what bounds a question without it: for the server, the
// bound it puts on a call whose host sends no progress token and so cannot
// be kept from its idle limit (mcp.DefaultUnwatched); for the hook, its
// own --timeout.
func askTimeoutFlag(server bool) cli.Flag {
	f := &cli.DurationFlag{Name: "ask-timeout", Category: cmdutil.CatTimeouts, Usage: "bound each question set to `DURATION` (e.g. 10m); see --on-timeout",
		DefaultText: "none; --timeout bounds the whole hook"}
	if server {
		f.Usage += fmt.Sprintf(". Without it, a call whose host sends no progress token is bounded by %s, and the result says nobody answered: "+
			"askuser cannot send such a host progress, and Claude Code 2.1.330 aborts a call after 30 minutes without a reply or progress, "+
			"sending no cancellation, which would leave the question on the person's screen after the host gave up", cmdutil.ShortDuration(mcp.DefaultUnwatched))
		f.DefaultText = cmdutil.ShortDuration(mcp.DefaultUnwatched) + " for a call without a progress token, none for a call with one"
	}
	return f
}

// Flags are the bridge's flags (FlagsFor), as given.
type Flags struct {
	Asking chooser.Flags
	Store  cmdutil.StoreFlags
	// AskTimeout is --ask-timeout; AskTimeoutSet says it was given.
	AskTimeout    time.Duration
	AskTimeoutSet bool
	OnTimeout     string
	// Name is what the host knows askuser's MCP server by.
	Name string
}

// ReadFlags reads the bridge's flags of c's command.
func ReadFlags(c *cli.Context) Flags {
	return Flags{Asking: chooser.ReadFlags(c), Store: cmdutil.ReadStoreFlags(c),
		AskTimeout: c.Duration("ask-timeout"), AskTimeoutSet: c.IsSet("ask-timeout"),
		OnTimeout: c.String("on-timeout"), Name: c.String("name")}
}
