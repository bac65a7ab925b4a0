package frontend

import (
	"os"

	"github.com/AlecAivazis/survey/v2/terminal"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend/prompt"
)

// Survey asks a person at a terminal: askuser's own prompt, whose engine
// (drawing, keys, the plain mode, the terminal's modes) is package
// frontend/prompt. Every answer is marked ask.SourcePerson: a person chose
// it with the keys, and no key answers without the person choosing. A
// Survey asks one set at a time: there is one terminal. See prompt.Survey
// for what it draws and how it ends.
type Survey = prompt.Survey

var _ ask.Frontend = (*Survey)(nil)

// The prompt measures text as survey/v2 does (East Asian wide characters
// take two cells): survey is unmaintained upstream, so this file holds
// askuser's one import of it, and replacing it touches this file alone.
func init() { prompt.UseWidth(terminal.StringWidth) }

// NewSurvey returns a frontend that reads keys from in (a terminal; raw
// mode is set on it while asking) and draws on out (a terminal; may be
// different from stdout, which can be redirected).
func NewSurvey(in, out *os.File) *Survey { return prompt.NewSurvey(in, out) }
