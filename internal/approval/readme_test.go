package approval

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/approvals.md's table of what a rule allows from ruleTable")

// The markers around the manual's table (docs/approvals.md).
const (
	tableBegin = "<!-- rule table: go test ./internal/approval -run TestREADMERuleTable -update writes it from ruleTable -->"
	tableEnd   = "<!-- end of rule table -->"
)

// TestREADMERuleTable keeps the manual's table of what a rule allows
// (docs/approvals.md, which README links to) the very table TestRuleTable
// checks: a row changed in one and not the other fails.
func TestREADMERuleTable(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "approvals.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, tableBegin), strings.Index(readme, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/approvals.md has no rule table between %q and %q", tableBegin, tableEnd)
	}
	want := "\n" + renderRuleTable() + "\n"
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i+len(tableBegin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := readme[i+len(tableBegin) : j]; got != want {
		t.Errorf("docs/approvals.md's rule table is not ruleTable; run go test ./internal/approval -run TestREADMERuleTable -update\ndocs/approvals.md:\n%s\nruleTable:\n%s", got, want)
	}
}

// renderRuleTable writes ruleTable as a Markdown table.
func renderRuleTable() string {
	var b strings.Builder
	b.WriteString("| Rules | Call | Result | Why |\n|---|---|---|---|\n")
	for _, c := range ruleTable {
		var rules []string
		for _, part := range strings.Split(c.rules, "; ") {
			verdict, rule, _ := strings.Cut(part, ": ")
			if verdict == "mode" {
				verdict = "`--permission-mode`"
			}
			rules = append(rules, verdict+" "+code(rule))
		}
		call := code(c.call)
		if c.tool != "" {
			call = c.tool + " " + call
		}
		result := c.want
		if result == "denied" {
			result = "**denied**"
		}
		b.WriteString("| " + strings.Join(rules, ", ") + " | " + call + " | " + result + " | " + strings.ReplaceAll(c.why, "|", `\|`) + " |\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// code writes s as a code span in a table cell: a newline as ⏎, a pipe
// escaped, and enough backquotes around it.
func code(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\n", "⏎"), "|", `\|`)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || fence != "`" {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
