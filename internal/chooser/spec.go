package chooser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
)

// Flags are the flags that choose how to ask (FrontendFlags, the channels'
// flags, --protocol-fd and serve's hidden resume flags), as given.
type Flags struct {
	Frontend string
	// FrontendSet says --frontend was given on the command line.
	FrontendSet  bool
	Listen       string
	Answers      string
	OnUnanswered string
	Verbose      bool
	Plain        bool
	PlainSet     bool
	// Channels are the channels' flags, by name.
	Channels map[string]string
	// RelayDefer and RelayThread are askuser serve's background resume's.
	RelayDefer  bool
	RelayThread string
	// ProtocolFD is --protocol-fd, when ProtocolFDSet.
	ProtocolFD    int
	ProtocolFDSet bool
	// Accepted are the --frontend names the command accepts: its flag's
	// choices.
	Accepted []string
}

// ReadFlags reads the asking flags of c's command.
func ReadFlags(c *cli.Context) Flags {
	return Flags{
		Frontend: c.String("frontend"), FrontendSet: c.IsSet("frontend"),
		Listen: c.String("listen"), Answers: c.String("answers"), OnUnanswered: c.String("on-unanswered"),
		Verbose: c.Bool("verbose"), Plain: c.Bool("plain"), PlainSet: c.IsSet("plain"),
		Channels:   channelwire.ReadFlags(c),
		RelayDefer: c.Bool(channelwire.FlagRelayDefer), RelayThread: c.String(channelwire.FlagRelayThread),
		ProtocolFD: c.Int("protocol-fd"), ProtocolFDSet: c.IsSet("protocol-fd"),
		Accepted: cmdutil.ChoicesOf(c.Command.Flags, "frontend"),
	}
}

// Spec is the frontend the flags and environment ask for.
type Spec struct {
	// Name is the frontend, or a comma list of them (Names); NameFrom
	// the flag or variable that named it.
	Name, NameFrom       string
	Names                []string
	Listen               string
	Answers, AnswersFrom string
	Unanswered           ask.Policy // "" = the file's own setting
	UnansweredFrom       string     // the flag or variable that set it
	Verbose              bool
	Plain                bool // --plain or ASKUSER_PLAIN
	// Place is where the inbox and channel frontends keep their sets.
	Place channelwire.Place

	// AnswersIn says the answers file is standard input itself
	// (--answers /dev/stdin): then nothing else may read standard input.
	AnswersIn bool
}

// ReadSpec reads the frontend flags fl and the environment; store are the
// command's store flags, where the inbox and channel frontends keep their
// sets.
func ReadSpec(f *cmdutil.Factory, fl Flags, store cmdutil.StoreFlags) (Spec, error) {
	s := Spec{Verbose: fl.Verbose}
	s.Name, s.NameFrom = f.FlagOrEnv(fl.Frontend, "frontend", "ASKUSER_FRONTEND")
	var err error
	if s.Names, err = ParseList(s.NameFrom, s.Name, fl.Accepted); err != nil {
		return s, err
	}
	s.Listen = fl.Listen
	if s.Listen != "" && !slices.Contains(s.Names, Web) {
		return s, cmdutil.UsageErrorf("--listen is for the web page; add --frontend web")
	}
	if err := s.ReadPlace(f, fl, store); err != nil {
		return s, err
	}
	return s, s.ReadRest(f, fl, slices.Contains(s.Names, File))
}

// ReadPlace reads where the inbox and channel frontends keep their sets,
// and the channels' settings when a channel is named.
func (s *Spec) ReadPlace(f *cmdutil.Factory, fl Flags, store cmdutil.StoreFlags) error {
	if !channelwire.Members(s.Names) {
		return nil
	}
	st, err := f.Store(store)
	if err != nil {
		return err
	}
	s.Place.Store, s.Place.ErrOut = st, f.IOStreams.ErrOut
	if fl.RelayDefer {
		// askuser serve's background resume: serve sends the sets.
		s.Place.DeferAll = true
		return s.Place.ThreadUnder(fl.RelayThread)
	}
	if slices.ContainsFunc(s.Names, func(n string) bool { return n != channelwire.Inbox && channelwire.IsRelayName(n) }) {
		src, err := channelwire.Sources(f, fl.Channels)
		if err != nil {
			return err
		}
		s.Place.Src = &src
	}
	return nil
}

// ReadRest reads what every choice of frontend shares after its name:
// --plain (or ASKUSER_PLAIN), --answers (or ASKUSER_ANSWERS), which the
// file frontend needs, and --on-unanswered (or ASKUSER_ON_UNANSWERED).
func (s *Spec) ReadRest(f *cmdutil.Factory, fl Flags, fileChosen bool) error {
	s.Plain = fl.Plain
	if v := f.Getenv("ASKUSER_PLAIN"); v != "" && v != "0" && !fl.PlainSet {
		s.Plain = true
	}
	s.Answers, s.AnswersFrom = f.FlagOrEnv(fl.Answers, "answers", "ASKUSER_ANSWERS")
	if fileChosen && s.Answers == "" {
		return cmdutil.UsageErrorf("%s file needs an answers file: give --answers FILE (or ASKUSER_ANSWERS)", s.NameFrom)
	}
	s.AnswersIn = f.IOStreams.IsIn(s.Answers)
	if s.AnswersIn && fileChosen && slices.Contains(s.Names, Stdio) {
		return s.StdinTaken("the stdio frontend cannot read answers from standard input too",
			"drop stdio from "+s.NameFrom+", or give the answers file another way (a path, or <(…))")
	}
	if v, from := f.FlagOrEnv(fl.OnUnanswered, "on-unanswered", "ASKUSER_ON_UNANSWERED"); v != "" {
		p, err := ask.ParsePolicy(from, v)
		if err != nil {
			return cmdutil.WithCode(cmdutil.ExitUsage, err)
		}
		s.Unanswered, s.UnansweredFrom = p, from
	}
	return nil
}

// StdinTaken is the usage error for something (what) that would read
// standard input when the answers file is standard input: it would find
// nothing, or take the file's bytes. fix says what to do instead.
func (s Spec) StdinTaken(what, fix string) error {
	return cmdutil.UsageErrorf("%s %s is standard input, so %s; %s", s.AnswersFrom, ask.Display(s.Answers), what, fix)
}

// ParseList reads --frontend: one name, or a comma list of different
// names that are offered together (a frontend.Race); accepted are the
// command's names for it.
func ParseList(from, value string, accepted []string) ([]string, error) {
	if value == "" {
		return nil, nil
	}
	names := strings.Split(value, ",")
	for i, n := range names {
		n = strings.TrimSpace(n)
		names[i] = n
		switch {
		case channelwire.IsRelayName(n) && !slices.Contains(accepted, n) && slices.Contains(accepted, channelwire.Inbox):
			spec, _ := channel.Lookup(n)
			return nil, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("%s: %w", from, spec.NotLinked()))
		case !slices.Contains(accepted, n):
			return nil, cmdutil.UsageErrorf("%s: %s is not a frontend; use %s, or a comma list such as %s", from, ask.Excerpt(n), cmdutil.OrList(accepted), ListExample(accepted))
		case n == Auto && len(names) > 1:
			return nil, cmdutil.UsageErrorf("%s: auto answers at once, so in a list it would always win; use --ask-timeout with --on-timeout auto to fall back to it", from)
		case slices.Contains(names[:i], n):
			return nil, cmdutil.UsageErrorf("%s: %s is listed twice", from, n)
		}
	}
	return names, nil
}
