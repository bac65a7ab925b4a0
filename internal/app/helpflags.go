package app

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
)

// flags lists flags in two columns, grouped by category when any has one.
func (p *page) flags(title string, flags []cli.Flag) {
	if len(flags) == 0 {
		return
	}
	p.section(title)
	groups := map[string][]cli.Flag{}
	for _, f := range flags {
		groups[categoryOf(f)] = append(groups[categoryOf(f)], f)
	}
	order := append(slices.Clone(cmdutil.CategoryOrder), "")
	col := 0
	for _, f := range flags {
		col = max(col, len([]rune(flagTitle(f))))
	}
	col = min(col, 26) // longer names put what they do on the next line
	first := true
	for _, cat := range order {
		if len(groups[cat]) == 0 {
			continue
		}
		if len(groups) > 1 {
			if !first {
				p.b.WriteString("\n")
			}
			label := cat
			if label == "" {
				label = "Other"
			}
			p.b.WriteString("   " + label + "\n")
		}
		first = false
		for _, f := range groups[cat] {
			p.flag(f, col)
		}
	}
}

// flag writes one flag: its names in the first column, what it does in
// the second. When the page is too narrow for two columns, or the names
// are wider than the first, what it does starts on the next line.
func (p *page) flag(f cli.Flag, col int) {
	title, usage := flagTitle(f), flagUsage(f)
	start := 3 + col + 3
	if p.width-start < 30 {
		p.b.WriteString("   " + title + "\n")
		p.para(usage, 9, 9)
		return
	}
	if n := len([]rune(title)); n <= col {
		p.hanging("   "+title+strings.Repeat(" ", start-3-n), usage, start)
		return
	}
	p.b.WriteString("   " + title + "\n")
	p.para(usage, start, start)
}

func categoryOf(f cli.Flag) string {
	if c, ok := f.(cli.CategorizableFlag); ok {
		return c.GetCategory()
	}
	return ""
}

// flagTitle is a flag's names as typed, with the placeholder of its value:
// "-f, --frontend NAME", "    --listen ADDR".
func flagTitle(f cli.Flag) string {
	var short, long []string
	for _, n := range f.Names() {
		if len(n) == 1 {
			short = append(short, "-"+n)
		} else {
			long = append(long, "--"+n)
		}
	}
	title := strings.Join(append(short, long...), ", ")
	if len(short) == 0 {
		title = "    " + title
	}
	if ph := placeholder(f); ph != "" {
		title += " " + ph
	}
	return title
}

// placeholder names a flag's value: the word its usage quotes in
// backticks, else one by the value's kind; "" for a boolean.
func placeholder(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok || !df.TakesValue() {
		return ""
	}
	if name, _ := unquoteUsage(df.GetUsage()); name != "" {
		return name
	}
	switch f := f.(type) {
	case *cmdutil.ChoiceFlag:
		return f.Placeholder
	case *cli.IntFlag:
		return "N"
	case *cli.DurationFlag:
		return "DURATION"
	}
	return "VALUE"
}

// flagUsage is what a flag does, with its default where it has one that
// says something (not false, 0 or empty), and "repeatable" for a list.
func flagUsage(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	_, usage := unquoteUsage(df.GetUsage())
	if sf, ok := f.(cli.DocGenerationSliceFlag); ok && sf.IsSliceFlag() && !strings.Contains(usage, "repeatable") {
		usage += "; repeatable"
	}
	if _, isBool := f.(*cli.BoolFlag); !isBool {
		switch d := strings.Trim(df.GetDefaultText(), `"`); d {
		case "", "0", "0s":
		default:
			usage += " (default: " + d + ")"
		}
	}
	return usage
}

// unquoteUsage finds the first word in backticks in usage, urfave/cli's
// way of naming a flag's value, and returns it with usage unquoted.
func unquoteUsage(usage string) (name, text string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	name = usage[i+1 : i+1+j]
	return name, usage[:i] + name + usage[i+1+j+1:]
}
