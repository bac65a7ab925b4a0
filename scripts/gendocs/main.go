// Command gendocs writes askuser's command reference, docs/cli: a page per
// command and subcommand, each the help page the binary prints, rendered
// by askuser's own help printer (internal/app.Reference), and README.md
// listing them. Pages of commands that are gone are removed. Run it from
// the repository's root after changing a command's flags or help:
//
//	go run ./scripts/gendocs
//
// internal/app's TestReferenceIsCurrent fails, naming this command, when a
// page is stale.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/internal/app"
)

func main() {
	dir := flag.String("dir", filepath.Join("docs", "cli"), "the folder to write the reference to")
	flag.Parse()
	if err := write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	pages, err := app.Reference()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	for _, path := range old {
		if _, ok := pages[filepath.Base(path)]; !ok {
			if err := os.Remove(path); err != nil {
				return err
			}
			fmt.Println("removed", path)
		}
	}
	var written []string
	for name, content := range pages {
		path := filepath.Join(dir, name)
		if b, err := os.ReadFile(path); err == nil && string(b) == string(content) {
			continue
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
		written = append(written, path)
	}
	if len(written) > 0 {
		fmt.Println("wrote", strings.Join(written, ", "))
	}
	fmt.Printf("%s: %d pages, current\n", dir, len(pages))
	return nil
}
