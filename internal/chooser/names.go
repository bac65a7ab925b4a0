package chooser

import (
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
)

// Frontend names. The inbox's is channelwire.Inbox; a chat channel's is
// its own name.
const (
	Survey = "survey"
	Stdio  = "stdio"
	File   = "file"
	Auto   = "auto"
	Web    = "web"
	// Elicit asks through the MCP host's own form (askuser mcp only).
	Elicit = "elicit"
)

// Asking is what a command accepts for how it asks.
type Asking struct {
	// Frontends are the --frontend names, in the order help and
	// completion give them.
	Frontends []string
	// Lists: --frontend takes a comma list, whose members race.
	Lists bool
	// Suspend: --on-unanswered suspend, which needs a session to come
	// back to.
	Suspend bool
	// Bridge: standard input is the host's, not the person's (mcp, hook),
	// so the person is reached at /dev/tty and auto never approves a tool.
	Bridge bool
}

// What each command accepts. ask, run and resume read answers on stdin;
// mcp and hook do not, and only the MCP server has a host form or serves
// a page. The inbox and the chat channels built in need no listener: every
// command takes them.
var (
	AskAsking  = Asking{Frontends: withRelay(Survey, Stdio, File, Auto, Web), Lists: true}
	RunAsking  = Asking{Frontends: AskAsking.Frontends, Lists: true, Suspend: true}
	MCPAsking  = Asking{Frontends: withRelay(Survey, File, Auto, Elicit, Web), Lists: true, Bridge: true}
	HookAsking = Asking{Frontends: withRelay(Survey, File, Auto), Lists: true, Bridge: true}
)

// ListExample is a comma list of two of accepted, for a message.
func ListExample(accepted []string) string {
	if slices.Contains(accepted, Web) {
		return "web,survey"
	}
	return "inbox,survey"
}

// withRelay is names, then the inbox and the chat channels built in.
func withRelay(names ...string) []string {
	return append(append(names, channelwire.Inbox), channelwire.Names()...)
}

// frontendWhat says what each frontend is, in --frontend's help.
var frontendWhat = map[string]string{
	Survey:            "a prompt at the terminal",
	Stdio:             "JSON lines on stdin and stdout",
	File:              "the answers file",
	Auto:              "the recommended options",
	Web:               "a page in a browser",
	Elicit:            "the MCP host's own form",
	channelwire.Inbox: "askuser serve's page and chat channels",
}

// FrontendFlags are the flags that choose how questions are asked, as a
// command accepts them.
func FrontendFlags(a Asking) []cli.Flag {
	var names []string
	for _, n := range a.Frontends {
		what := frontendWhat[n]
		if what == "" {
			what = channel.Title(n) // a chat channel
		}
		switch {
		case a.Bridge && n == Survey:
			what += ", /dev/tty"
		case a.Bridge && n == Auto:
			what += "; never approves a tool"
		}
		names = append(names, n+" ("+what+")")
	}
	usage := "how to ask: " + cmdutil.OrList(names)
	if a.Lists {
		usage += "; a comma list such as " + ListExample(a.Frontends) + " offers several and the first answer wins"
	}
	if a.Bridge {
		usage += " (env ASKUSER_FRONTEND; default: the answers file if given, else the terminal)"
	} else {
		usage += " (env ASKUSER_FRONTEND; default: the answers file if given, else the prompt when stdin is a terminal, else JSON lines when it is a pipe)"
	}
	policies := []string{string(ask.PolicyError), string(ask.PolicyAuto)}
	unanswered := "when the answers file has no entry for a question: error, or auto (the recommended option)"
	if a.Suspend {
		policies = append(policies, string(ask.PolicySuspend))
		unanswered = "when the answers file has no entry for a question: error, auto (the recommended option) or suspend " +
			"(stop and wait for askuser resume; with --frontend stdio, the sets stdin ends before answering are kept, and answer lines may name sets not asked yet)"
	}
	flags := []cli.Flag{
		&cmdutil.ChoiceFlag{Placeholder: "NAME", StringFlag: &cli.StringFlag{Name: "frontend", Aliases: []string{"f"}, Category: cmdutil.CatAsking, Usage: usage}, Choices: a.Frontends},
	}
	if slices.Contains(a.Frontends, Web) {
		flags = append(flags, &cli.StringFlag{Name: "listen", Category: cmdutil.CatAsking,
			Usage: "with --frontend web: serve the page on `ADDR` (default 127.0.0.1 and a free port; another host is reachable by others, who still need the token)"})
	}
	flags = append(flags,
		&cli.StringFlag{Name: "answers", Aliases: []string{"a"}, Category: cmdutil.CatAsking, Usage: "answer from this YAML answers `FILE` (env ASKUSER_ANSWERS)"},
		&cmdutil.ChoiceFlag{Placeholder: "POLICY", StringFlag: &cli.StringFlag{Name: "on-unanswered", Category: cmdutil.CatAsking,
			Usage: unanswered + " (env ASKUSER_ON_UNANSWERED; default: the file's own unanswered: key, else error)"}, Choices: policies},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Category: cmdutil.CatAsking, Usage: "say which frontend was chosen and why, on stderr"},
		&cli.BoolFlag{Name: "plain", Category: cmdutil.CatAsking, Usage: "at a terminal, ask with numbered lines and a typed answer, with no escape sequences (env ASKUSER_PLAIN=1; automatic with TERM=dumb)"},
	)
	return append(flags, channelwire.Flags()...)
}
