package cmdutil

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
)

// Flag categories: help groups a command's flags under these, in this
// order (CategoryOrder); a flag without one is listed last, under "Other".
const (
	CatAsking   = "Asking"
	CatChannels = "Chat channels"
	CatTimeouts = "Timeouts and notices"
	CatOutput   = "Output"
	CatModel    = "Model"
	CatTools    = "Tools and approvals"
	CatSession  = "Session"
)

// CategoryOrder is the order help lists flag categories in.
var CategoryOrder = []string{CatAsking, CatChannels, CatTimeouts, CatOutput, CatModel, CatTools, CatSession}

// ChoiceFlag is a flag whose value is one of a few words (for --frontend
// of ask, run and resume, a comma list of them). Choices is the one list
// its command accepts: the parser checks --frontend against it, help
// describes it, and completion offers it, so a command never offers what
// it refuses.
type ChoiceFlag struct {
	Placeholder string // names the value in help: NAME, POLICY
	*cli.StringFlag
	Choices []string
}

// ChoicesOf returns the choices of the flag called name among flags, nil
// when there is none or it takes any value.
func ChoicesOf(flags []cli.Flag, name string) []string {
	for _, f := range flags {
		if cf, ok := f.(*ChoiceFlag); ok && slices.Contains(cf.Names(), name) {
			return cf.Choices
		}
	}
	return nil
}

// OrList words a list as "a, b or c".
func OrList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// OnTimeoutFlag is --on-timeout with the policies a command accepts, the
// first its default.
func OnTimeoutFlag(usage string, policies ...ask.Policy) cli.Flag {
	var choices []string
	for _, p := range policies {
		choices = append(choices, string(p))
	}
	return &ChoiceFlag{"POLICY", &cli.StringFlag{Name: "on-timeout", Category: CatTimeouts, Value: choices[0], Usage: usage}, choices}
}

// WithoutFlags is flags without those called names.
func WithoutFlags(flags []cli.Flag, names ...string) []cli.Flag {
	return slices.DeleteFunc(flags, func(f cli.Flag) bool { return slices.Contains(names, f.Names()[0]) })
}

// StateDirFlag is --state-dir of the commands that read sessions.
func StateDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "state-dir", Usage: "sessions are under `DIR` (env ASKUSER_STATE_DIR)"}
}

// StoreFlag is --store, beside --state-dir (in its help category, if
// any). A password in the URL would show in the process list: the usage
// says to keep it in the environment.
func StoreFlag(category ...string) cli.Flag {
	return &cli.StringFlag{Name: "store", Category: strings.Join(category, ""),
		Usage: "keep sessions and answers in the team store at `URL` (postgres://user@host/db; env ASKUSER_STORE; " +
			"a password goes in ASKUSER_STORE, PGPASSWORD or ~/.pgpass, not in the process list); default: the state directory"}
}

// StoreFlags are --state-dir and --store as given (each "" when not),
// and what opening the team store needs of the command (storeOpening):
// its context, its name and its --timeout.
type StoreFlags struct {
	StateDir, Store string
	Context         context.Context
	Command         string
	Timeout         time.Duration
}

// ReadStoreFlags reads --state-dir and --store from c, and what the team
// store's opening needs of c.
func ReadStoreFlags(c *cli.Context) StoreFlags {
	s := StoreFlags{StateDir: c.String("state-dir"), Store: c.String("store"), Context: c.Context}
	if c.Command != nil {
		s.Command = c.Command.Name
		for _, f := range c.Command.Flags {
			if slices.Contains(f.Names(), "timeout") {
				s.Timeout = c.Duration("timeout")
			}
		}
	}
	return s
}
