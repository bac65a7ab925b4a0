package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/app"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// TestReferenceIsCurrent: docs/cli holds a page per visible command and
// subcommand, each exactly the help the binary prints, and nothing else;
// a stale, missing or extra page fails, naming the command that writes
// them again. (It runs here, in a test binary that links the channels a
// release links and no test channel, so the pages list what askuser
// offers.)
func TestReferenceIsCurrent(t *testing.T) {
	pages, err := app.Reference()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "docs", "cli")
	for name, want := range pages {
		got, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case err != nil:
			t.Errorf("docs/cli/%s is missing (%v); write the command reference again: %s", name, err, app.ReferenceCommand)
		case string(got) != string(want):
			t.Errorf("docs/cli/%s is stale: it is not the help askuser prints now; write the command reference again: %s", name, app.ReferenceCommand)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, ok := pages[filepath.Base(f)]; !ok {
			t.Errorf("docs/cli/%s is no command's page; %s removes it", filepath.Base(f), app.ReferenceCommand)
		}
	}
}

// TestReferenceHasEveryCommand: a page per visible command and
// subcommand, named after it, and README.md links each.
func TestReferenceHasEveryCommand(t *testing.T) {
	pages, err := app.Reference()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"README.md", "askuser.md"}
	for _, c := range app.New(cmdutil.NewFactory(iostreams.New(nil, nil, nil), func(string) string { return "" })).Commands {
		if c.Hidden {
			continue
		}
		want = append(want, "askuser_"+c.Name+".md")
		for _, s := range c.Subcommands {
			want = append(want, "askuser_"+c.Name+"_"+s.Name+".md")
		}
	}
	var got []string
	for name := range pages {
		got = append(got, name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the reference's pages are %q, want %q", got, want)
	}
	for _, name := range want {
		if name != "README.md" && !strings.Contains(string(pages["README.md"]), "]("+name+")") {
			t.Errorf("docs/cli/README.md does not link %s", name)
		}
	}
	if run := string(pages["askuser_run.md"]); !strings.Contains(run, "NAME:\n   askuser run - ") || !strings.Contains(run, "EXIT CODES:") {
		t.Errorf("askuser_run.md is not run's help page:\n%s", run)
	}
}
