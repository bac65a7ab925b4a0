package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// The command reference (docs/cli): a page per visible command and
// subcommand, and askuser's own, each the help page the binary prints,
// rendered by the same printer at 80 columns; and README.md, which lists
// them. scripts/gendocs writes it; TestReferenceIsCurrent fails when a
// page is stale.

// ReferenceCommand is the command that writes the reference.
const ReferenceCommand = "go run ./scripts/gendocs"

// referenceWidth is the width the reference's pages are laid out at: the
// width help takes when its output is not a terminal.
const referenceWidth = 80

// referenceVersion stands for the version on askuser's own page, which
// depends on the build.
const referenceVersion = "(askuser --version prints this build's)"

// Reference renders the command reference: file name (askuser_run.md,
// askuser_sessions_rm.md, README.md) to content.
func Reference() (map[string][]byte, error) {
	pages := map[string][]byte{}
	var index strings.Builder
	index.WriteString("# askuser command reference\n\n" + generatedNote() + "\n\n")
	index.WriteString("| Command | What it does |\n| --- | --- |\n")
	for _, words := range referenceTopics() {
		text, err := helpText(words)
		if err != nil {
			return nil, err
		}
		name := strings.Join(append([]string{"askuser"}, words...), " ")
		file := strings.ReplaceAll(name, " ", "_") + ".md"
		pages[file] = []byte("# " + name + "\n\n" + generatedNote() + "\n\n```text\n" + text + "```\n")
		fmt.Fprintf(&index, "| [%s](%s) | %s |\n", name, file, usageOf(words))
	}
	pages["README.md"] = []byte(index.String())
	return pages, nil
}

// generatedNote says where a page comes from and how it is made again.
func generatedNote() string {
	return "<!-- Generated from askuser's own help by `" + ReferenceCommand + "`; do not edit. -->"
}

// referenceTopics are the command words of every page: none for askuser's
// own, then each visible command and its visible subcommands, in the
// order help lists them.
func referenceTopics() [][]string {
	topics := [][]string{nil}
	for _, c := range referenceApp(io.Discard).Commands {
		if c.Hidden {
			continue
		}
		topics = append(topics, []string{c.Name})
		for _, s := range c.Subcommands {
			if !s.Hidden && s.Name != "help" {
				topics = append(topics, []string{c.Name, s.Name})
			}
		}
	}
	return topics
}

// usageOf is the one-line usage of the command words name ("" is
// askuser's own).
func usageOf(words []string) string {
	app := referenceApp(io.Discard)
	if len(words) == 0 {
		return app.Usage
	}
	c := app.Command(words[0])
	for _, w := range words[1:] {
		c = c.Command(w)
	}
	return c.Usage
}

// helpText is the help page askuser prints for askuser help WORDS (the
// same as askuser WORDS --help; help's own page is askuser help help), or
// for askuser --help.
func helpText(words []string) (string, error) {
	args := []string{"askuser", "--help"}
	if len(words) > 0 {
		args = append([]string{"askuser", "help"}, words...)
	}
	var out bytes.Buffer
	if err := referenceApp(&out).RunContext(context.Background(), args); err != nil {
		return "", fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return out.String(), nil
}

// referenceApp is askuser writing its help to out at referenceWidth, in an
// empty environment, so the pages do not depend on where they are made.
func referenceApp(out io.Writer) *cli.App {
	ios := iostreams.New(nil, out, io.Discard)
	ios.Getenv = func(string) string { return "" }
	app := New(cmdutil.NewFactory(ios, ios.Getenv))
	app.Writer = &helpOut{Writer: out, width: referenceWidth}
	app.Version = referenceVersion
	return app
}
