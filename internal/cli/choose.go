package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/iostreams"
)

// Frontend names.
const (
	feSurvey = "survey"
	feStdio  = "stdio"
	feFile   = "file"
	feAuto   = "auto"
)

// frontendFlags are the flags that choose how questions are asked; ask,
// run and resume share them.
func frontendFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "frontend", Aliases: []string{"f"}, Usage: "how to ask: survey (terminal prompt), stdio (JSON lines), file (answers file), auto (recommended option) (env ASKUSER_FRONTEND)"},
		&cli.StringFlag{Name: "answers", Aliases: []string{"a"}, Usage: "answer from this YAML answers `FILE` (env ASKUSER_ANSWERS)"},
		&cli.StringFlag{Name: "on-unanswered", Usage: "when the answers file has no entry for a question: error, auto (recommended option) or suspend (run only) (env ASKUSER_ON_UNANSWERED; default: the file's own unanswered: key, else error)"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say which frontend was chosen and why, on stderr"},
		&cli.BoolFlag{Name: "plain", Usage: "at a terminal, ask with numbered lines and a typed answer, with no escape sequences (env ASKUSER_PLAIN=1; automatic with TERM=dumb)"},
	}
}

// frontendSpec is the frontend the flags and environment ask for.
type frontendSpec struct {
	name, nameFrom       string
	answers, answersFrom string
	unanswered           ask.Policy // "" = the file's own setting
	verbose              bool
	plain                bool // --plain or ASKUSER_PLAIN
}

func readFrontendSpec(c *cli.Context, e *env) (frontendSpec, error) {
	s := frontendSpec{verbose: c.Bool("verbose"), plain: c.Bool("plain")}
	if v := e.getenv("ASKUSER_PLAIN"); v != "" && v != "0" && !c.IsSet("plain") {
		s.plain = true
	}
	s.name, s.nameFrom = flagOrEnv(c, e, "frontend", "ASKUSER_FRONTEND")
	switch s.name {
	case "", feSurvey, feStdio, feFile, feAuto:
	default:
		return s, usageErrorf("%s: %q is not a frontend; use survey, stdio, file or auto", s.nameFrom, s.name)
	}
	s.answers, s.answersFrom = flagOrEnv(c, e, "answers", "ASKUSER_ANSWERS")
	if s.name == feFile && s.answers == "" {
		return s, usageErrorf("%s file needs an answers file: give --answers FILE (or ASKUSER_ANSWERS)", s.nameFrom)
	}
	if v, from := flagOrEnv(c, e, "on-unanswered", "ASKUSER_ON_UNANSWERED"); v != "" {
		p, err := ask.ParsePolicy(from, v)
		if err != nil {
			return s, withCode(ExitUsage, err)
		}
		s.unanswered = p
	}
	return s, nil
}

// flagOrEnv returns the flag's value, else the environment variable's, and
// names where it came from.
func flagOrEnv(c *cli.Context, e *env, flag, envVar string) (value, from string) {
	if v := c.String(flag); v != "" {
		return v, "--" + flag
	}
	if v := e.getenv(envVar); v != "" {
		return v, envVar
	}
	return "", ""
}

// chosen is a built frontend with the reason it was picked.
type chosen struct {
	name, why string
	fe        ask.Frontend
	stdio     *frontend.Stdio // set when name is stdio
	tty       *os.File        // the terminal drawn on, when name is survey
	close     func()
	// rules are the approval rules of the answers file, when one was read.
	rules *approval.Policy
}

// chooseFrontend is the one place that decides how to ask: an explicit
// --frontend (or ASKUSER_FRONTEND) wins; else an answers file selects
// file; else a terminal on stdin selects survey; else a pipe or file on
// stdin selects stdio, configured as given (its In may be the rest of
// standard input after a question set read from it).
func chooseFrontend(s frontendSpec, ios *iostreams.IOStreams, stdio frontend.StdioConfig) (*chosen, error) {
	name, why := s.name, ""
	switch {
	case name != "":
		why = "chosen with " + s.nameFrom
	case s.answers != "":
		name, why = feFile, "an answers file was given with "+s.answersFrom
	case ios.CanPrompt():
		name, why = feSurvey, "standard input is a terminal"
	case ios.InKind() == iostreams.InPipe:
		name, why = feStdio, "standard input is a pipe or file, so answers are read from it as JSON lines"
	default:
		return nil, withCode(ExitNoAnswer, fmt.Errorf("no way to ask: standard input is %s and no answers file was given; "+
			"give --answers FILE (an answers file), --frontend auto (take the recommended options), "+
			"or pipe JSON-lines answers on standard input", ios.InKind()))
	}
	c := &chosen{name: name, why: why, close: func() {}}
	switch name {
	case feSurvey:
		in, out, closeTTY, err := ios.Terminal()
		if err != nil {
			return nil, withCode(ExitNoAnswer, fmt.Errorf("%w; use --answers FILE, --frontend stdio or --frontend auto instead", err))
		}
		sv := frontend.NewSurvey(in, out)
		color := ios.ColorAllowed() // it draws on a terminal, whatever stderr is
		sv.Color = &color
		sv.Plain = s.plain || ios.IsDumb()
		c.fe, c.close, c.tty = sv, closeTTY, out
	case feStdio:
		c.stdio = frontend.NewStdio(stdio)
		c.fe = c.stdio
	case feFile:
		if s.answers == "" {
			return nil, usageErrorf("the file frontend needs --answers FILE")
		}
		f, err := frontend.LoadFile(s.answers)
		if err != nil {
			if !errors.Is(err, frontend.ErrBadAnswers) {
				return nil, withCode(ExitUsage, fmt.Errorf("%s: %w", s.answersFrom, err))
			}
			return nil, err
		}
		if s.unanswered != "" {
			f.SetUnanswered(s.unanswered)
		}
		if c.rules, err = fileRules(f); err != nil {
			return nil, err
		}
		c.fe = f
	case feAuto:
		c.fe = frontend.Auto{}
	}
	return c, nil
}
