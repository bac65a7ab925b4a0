package app

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// Help is printed by askuser's own printer, not urfave/cli's templates, so
// that every page is wrapped to the terminal at word boundaries (a
// terminal left to wrap 100-column lines splits words), flags are grouped
// by category in two columns, and each page ends with the exit codes the
// command can return and examples. urfave/cli calls its package-level
// HelpPrinter for --help, so it is set once here; the width travels with
// the app's Writer (helpOut), not in a global.
func init() {
	cli.HelpPrinter = printHelp
}

// minHelpWidth is the narrowest page laid out; narrower terminals get it.
const minHelpWidth = 40

// helpOut is the app's Writer: standard output, with the width help is
// wrapped to.
type helpOut struct {
	io.Writer
	width int
}

// helpWidth is the width to wrap help to: the terminal's when standard
// output is one (or $COLUMNS says), else 80, as for a file or a pager.
func helpWidth(ios *iostreams.IOStreams) int {
	w := 80
	if ios.IsStdoutTTY() || ios.Getenv("COLUMNS") != "" {
		w = ios.TerminalWidth()
	}
	return max(w, minHelpWidth)
}

// printHelp is cli.HelpPrinter: it renders data, the app or a command,
// and ignores urfave/cli's template.
func printHelp(w io.Writer, _ string, data any) {
	width := 80
	if h, ok := w.(*helpOut); ok {
		width = h.width
	}
	p := &page{width: width}
	switch d := data.(type) {
	case *cli.App:
		p.app(d)
	case *cli.Command:
		p.command(d)
	}
	_, _ = io.WriteString(w, p.b.String())
}

// page builds one help page, width columns wide.
type page struct {
	b     strings.Builder
	width int
}

// section writes a heading and a blank line before it (but the first).
func (p *page) section(title string) {
	if p.b.Len() > 0 {
		p.b.WriteString("\n")
	}
	p.b.WriteString(title + ":\n")
}

// para writes text wrapped from column indent, lines after the first from
// column hang.
func (p *page) para(text string, indent, hang int) {
	p.hanging(strings.Repeat(" ", indent), text, hang)
}

// hanging writes prefix, then text wrapped from the column after it, the
// lines after the first from column hang.
func (p *page) hanging(prefix, text string, hang int) {
	n := len([]rune(prefix))
	lines := wrap(text, p.width, n, hang)
	lines[0] = prefix + lines[0][n:]
	p.b.WriteString(strings.Join(lines, "\n") + "\n")
}

func (p *page) app(a *cli.App) {
	p.section("NAME")
	p.para(a.Name+" - "+a.Usage, 3, 3+len(a.Name)+3)
	p.section("USAGE")
	p.para(a.HelpName+" [global options] command [command options]", 3, 7)
	p.section("VERSION")
	p.para(a.Version, 3, 3)
	p.commands("COMMANDS", a.VisibleCommands())
	p.flags("GLOBAL OPTIONS", a.VisibleFlags())
	p.exitCodes("")
	p.examples("")
}

func (p *page) command(c *cli.Command) {
	name := strings.TrimPrefix(c.HelpName, "askuser ")
	p.section("NAME")
	p.para(c.HelpName+" - "+c.Usage, 3, 3+len(c.HelpName)+3)
	p.section("USAGE")
	usage := c.HelpName
	if c.UsageText != "" {
		usage = c.UsageText
	} else {
		if len(c.VisibleFlags()) > 0 {
			usage += " [command options]"
		}
		if strings.TrimSpace(c.ArgsUsage) != "" {
			usage += " " + c.ArgsUsage
		}
	}
	p.para(usage, 3, 7)
	if c.Description != "" {
		p.section("DESCRIPTION")
		p.description(c.Description)
	}
	// urfave/cli adds its help command to a command's subcommands when
	// --help is given; "askuser help" is the one help command.
	p.commands("COMMANDS", slices.DeleteFunc(c.VisibleCommands(), func(s *cli.Command) bool { return s.Name == "help" }))
	p.flags("OPTIONS", c.VisibleFlags())
	p.exitCodes(name)
	p.examples(name)
}

// commands lists commands in two columns.
func (p *page) commands(title string, cmds []*cli.Command) {
	if len(cmds) == 0 {
		return
	}
	p.section(title)
	col := 0
	for _, c := range cmds {
		col = max(col, len(c.Name))
	}
	for _, c := range cmds {
		p.hanging("   "+c.Name+strings.Repeat(" ", col-len(c.Name)+2), c.Usage, 3+col+2)
	}
}

// description reflows a command's description: paragraphs are separated
// by blank lines and their lines joined; an indented line is an item of
// its own ("  term  what it is"), wrapped under its text, and a line
// indented deeper than an item's text continues that item.
func (p *page) description(text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			p.b.WriteString("\n")
		}
		var prose []string
		var items []item
		flush := func() {
			if len(prose) > 0 {
				p.para(strings.Join(prose, " "), 3, 3)
				prose = nil
			}
			for _, it := range items {
				p.item(it)
			}
			items = nil
		}
		for _, line := range strings.Split(para, "\n") {
			trimmed := strings.TrimLeft(line, " ")
			indent := len(line) - len(trimmed)
			switch {
			case indent == 0:
				if len(items) > 0 {
					flush()
				}
				prose = append(prose, trimmed)
			case len(items) > 0 && indent > items[len(items)-1].indent:
				last := &items[len(items)-1]
				if last.def != "" {
					last.def += " " + trimmed
				} else {
					last.term += " " + trimmed
				}
			default:
				flush()
				items = append(items, newItem(trimmed, indent))
			}
		}
		flush()
	}
}

// item is an indented line of a description: a term and, after two
// spaces or more, what it is (def), with the lines indented deeper that
// continue it. gap is the spaces between the two.
type item struct {
	term, def   string
	indent, gap int
}

func newItem(text string, indent int) item {
	it := item{term: text, indent: indent}
	if term, rest, ok := strings.Cut(text, "  "); ok {
		def := strings.TrimLeft(rest, " ")
		it.term, it.def, it.gap = term, def, len(rest)-len(def)+2
	}
	return it
}

// item writes a description's item: the definition beside its term when
// its column is in the left half of the page, else under it, indented.
func (p *page) item(it item) {
	at := 3 + it.indent
	if it.def == "" {
		p.para(it.term, at, at+4)
		return
	}
	if col := at + len([]rune(it.term)) + it.gap; col <= p.width/2 {
		p.hanging(strings.Repeat(" ", at)+it.term+strings.Repeat(" ", it.gap), it.def, col)
		return
	}
	p.para(it.term, at, at+4)
	p.para(it.def, at+4, at+4)
}

// exitCodes writes the EXIT CODES section for a command (by its name
// after "askuser"): the codes it can return, their meanings wrapped under
// the meaning column. The app's page ("") has the whole table, the
// program's.
func (p *page) exitCodes(cmd string) {
	p.section("EXIT CODES")
	if cmd == "" {
		p.para("The table for every command; each command's help lists the codes it can return.", 3, 3)
	}
	for _, e := range cmdutil.ExitTable() {
		if cmd == "" || slices.Contains(cmdutil.ExitsOf(cmd), e.Code) {
			head := fmt.Sprintf("   %-4d %-10s ", e.Code, e.Name)
			p.hanging(head, e.Text, len(head))
		}
	}
}

// examples writes the EXAMPLES section: each command with its comment
// beside it when both fit, else the comment above it; a command too long
// for the page is continued on the next line with a backslash, as a shell
// reads it.
func (p *page) examples(cmd string) {
	ex := examples[cmd]
	if len(ex) == 0 {
		return
	}
	p.section("EXAMPLES")
	col := 0
	for _, e := range ex {
		c, _, _ := strings.Cut(e, "  #")
		col = max(col, len([]rune(strings.TrimSpace(c))))
	}
	for _, e := range ex {
		c, comment, _ := strings.Cut(e, "  #")
		c, comment = strings.TrimSpace(c), strings.TrimSpace(comment)
		n := len([]rune(c))
		switch {
		case comment == "":
			p.shellLines(c)
		case 3+col+2+2+len([]rune(comment)) <= p.width:
			p.b.WriteString("   " + c + strings.Repeat(" ", col-n+2) + "# " + comment + "\n")
		case 3+n+2+2+len([]rune(comment)) <= p.width:
			p.b.WriteString("   " + c + "  # " + comment + "\n")
		default:
			p.para("# "+comment, 3, 5)
			p.shellLines(c)
		}
	}
}

// shellLines writes a shell command, continued with " \" at the spaces
// between its words (quoted strings are kept whole) when it is too long.
func (p *page) shellLines(command string) {
	words := shellWords(command)
	line := "   "
	for i, w := range words {
		if i > 0 && len([]rune(line))+1+len([]rune(w))+2 > p.width {
			p.b.WriteString(line + ` \` + "\n")
			line = "     " + w
			continue
		}
		if i > 0 {
			line += " "
		}
		line += w
	}
	p.b.WriteString(line + "\n")
}
