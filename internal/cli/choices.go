package cli

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// choiceFlag is a flag whose value is one of a few words (for --frontend
// of ask, run and resume, a comma list of them). choices is the one list
// its command accepts: the parser checks --frontend against it, help
// describes it, and completion offers it, so a command never offers what
// it refuses.
type choiceFlag struct {
	placeholder string // names the value in help: NAME, POLICY
	*cli.StringFlag
	choices []string
}

// choicesOf returns the choices of the flag called name among flags, nil
// when there is none or it takes any value.
func choicesOf(flags []cli.Flag, name string) []string {
	for _, f := range flags {
		if cf, ok := f.(*choiceFlag); ok && slices.Contains(cf.Names(), name) {
			return cf.choices
		}
	}
	return nil
}

// orList words a list as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// asking is what a command accepts for how it asks.
type asking struct {
	// frontends are the --frontend names, in the order help and
	// completion give them.
	frontends []string
	// lists: --frontend takes a comma list, whose members race.
	lists bool
	// suspend: --on-unanswered suspend, which needs a session to come
	// back to.
	suspend bool
	// bridge: standard input is the host's, not the person's (mcp, hook),
	// so the person is reached at /dev/tty and auto never approves a tool.
	bridge bool
}

// What each command accepts. ask, run and resume read answers on stdin;
// mcp and hook do not, and only the MCP server has a host form or serves
// a page. The inbox and the chat channels built in need no listener: every
// command takes them.
var (
	askAsking  = asking{frontends: withRelay(feSurvey, feStdio, feFile, feAuto, feWeb), lists: true}
	runAsking  = asking{frontends: askAsking.frontends, lists: true, suspend: true}
	mcpAsking  = asking{frontends: withRelay(feSurvey, feFile, feAuto, feElicit, feWeb), lists: true, bridge: true}
	hookAsking = asking{frontends: withRelay(feSurvey, feFile, feAuto), lists: true, bridge: true}
)

// listExample is a comma list of two of accepted, for a message.
func listExample(accepted []string) string {
	if slices.Contains(accepted, feWeb) {
		return "web,survey"
	}
	return "inbox,survey"
}

// withRelay is names, then the inbox and the chat channels built in.
func withRelay(names ...string) []string {
	return append(append(names, feInbox), channelNames()...)
}

// frontendWhat says what each frontend is, in --frontend's help.
var frontendWhat = map[string]string{
	feSurvey: "a prompt at the terminal",
	feStdio:  "JSON lines on stdin and stdout",
	feFile:   "the answers file",
	feAuto:   "the recommended options",
	feWeb:    "a page in a browser",
	feElicit: "the MCP host's own form",
	feInbox:  "askuser serve's page and chat channels",
}

// frontendFlags are the flags that choose how questions are asked, as a
// command accepts them.
func frontendFlags(a asking) []cli.Flag {
	var names []string
	for _, n := range a.frontends {
		what := frontendWhat[n]
		if what == "" {
			what = channel.Title(n) // a chat channel
		}
		switch {
		case a.bridge && n == feSurvey:
			what += ", /dev/tty"
		case a.bridge && n == feAuto:
			what += "; never approves a tool"
		}
		names = append(names, n+" ("+what+")")
	}
	usage := "how to ask: " + orList(names)
	if a.lists {
		usage += "; a comma list such as " + listExample(a.frontends) + " offers several and the first answer wins"
	}
	if a.bridge {
		usage += " (env ASKUSER_FRONTEND; default: the answers file if given, else the terminal)"
	} else {
		usage += " (env ASKUSER_FRONTEND; default: the answers file if given, else the prompt when stdin is a terminal, else JSON lines when it is a pipe)"
	}
	policies := []string{string(ask.PolicyError), string(ask.PolicyAuto)}
	unanswered := "when the answers file has no entry for a question: error, or auto (the recommended option)"
	if a.suspend {
		policies = append(policies, string(ask.PolicySuspend))
		unanswered = "when the answers file has no entry for a question: error, auto (the recommended option) or suspend " +
			"(stop and wait for askuser resume; with --frontend stdio, the sets stdin ends before answering are kept, and answer lines may name sets not asked yet)"
	}
	flags := []cli.Flag{
		&choiceFlag{"NAME", &cli.StringFlag{Name: "frontend", Aliases: []string{"f"}, Category: catAsking, Usage: usage}, a.frontends},
	}
	if slices.Contains(a.frontends, feWeb) {
		flags = append(flags, &cli.StringFlag{Name: "listen", Category: catAsking,
			Usage: "with --frontend web: serve the page on `ADDR` (default 127.0.0.1 and a free port; another host is reachable by others, who still need the token)"})
	}
	flags = append(flags,
		&cli.StringFlag{Name: "answers", Aliases: []string{"a"}, Category: catAsking, Usage: "answer from this YAML answers `FILE` (env ASKUSER_ANSWERS)"},
		&choiceFlag{"POLICY", &cli.StringFlag{Name: "on-unanswered", Category: catAsking,
			Usage: unanswered + " (env ASKUSER_ON_UNANSWERED; default: the file's own unanswered: key, else error)"}, policies},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Category: catAsking, Usage: "say which frontend was chosen and why, on stderr"},
		&cli.BoolFlag{Name: "plain", Category: catAsking, Usage: "at a terminal, ask with numbered lines and a typed answer, with no escape sequences (env ASKUSER_PLAIN=1; automatic with TERM=dumb)"},
	)
	return append(flags, channelFlags()...)
}

// onTimeoutFlag is --on-timeout with the policies a command accepts, the
// first its default.
func onTimeoutFlag(usage string, policies ...ask.Policy) cli.Flag {
	var choices []string
	for _, p := range policies {
		choices = append(choices, string(p))
	}
	return &choiceFlag{"POLICY", &cli.StringFlag{Name: "on-timeout", Category: catTimeouts, Value: choices[0], Usage: usage}, choices}
}

// withoutFlags is flags without those called names.
func withoutFlags(flags []cli.Flag, names ...string) []cli.Flag {
	return slices.DeleteFunc(flags, func(f cli.Flag) bool { return slices.Contains(names, f.Names()[0]) })
}
