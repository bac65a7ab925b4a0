package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The manual's own tests: README stays a landing page that opens with the
// two commands, every relative link in README, CHANGELOG and docs/ finds
// its file and its heading, and CHANGELOG reads as users' notes.

// readmeLimit is the most README.md may weigh: a landing page, with the
// rest of the manual under docs/.
const readmeLimit = 25_000

// readmeTop is how README.md opens: its title and the two commands.
const readmeTop = "# askuser\n\n```sh\n" +
	"go run . demo      # an agent asks you two questions, then writes a file you approve (no API key needed)\n" +
	"scripts/test.sh    # the tests: installs the pinned real clients into .tools/, then go test ./...\n" +
	"```\n"

// TestReadmeLandingPage: README.md is at most 25,000 bytes and opens with
// the two commands, exactly, in one block right under its title.
func TestReadmeLandingPage(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) > readmeLimit {
		t.Errorf("README.md is %d bytes, more than %d: move the detail into a guide under docs/ and link to it", len(readme), readmeLimit)
	}
	if !strings.HasPrefix(string(readme), readmeTop) {
		top, _, _ := strings.Cut(string(readme), "\n```\n")
		t.Errorf("README.md must open with its title and the two commands:\n%s\nit opens with:\n%s", readmeTop, top)
	}
}

// TestManualLinks: every relative link in README.md, CHANGELOG.md and
// docs/ names a file of the repository, and every #anchor a heading of the
// page it points into, as GitHub makes them.
func TestManualLinks(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	files := []string{filepath.Join(root, "README.md"), filepath.Join(root, "CHANGELOG.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		problems, n := brokenLinks(root, f)
		checked += n
		for _, p := range problems {
			t.Error(p)
		}
	}
	if checked < 50 {
		t.Errorf("only %d relative links found in %d files: is the link reader broken?", checked, len(files))
	}
}

// TestManualLinksCheckerFails: the checker itself finds a missing file, a
// missing anchor and a link leaving the repository, and passes what
// GitHub resolves (an anchor of a heading with code and punctuation, a
// second heading of the same name, a link inside code is not a link).
func TestManualLinksCheckerFails(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/b.md", "# B\n\n## In a browser: `--frontend web` and `askuser serve`\n\n## Setup\n\n## Setup\n\n## 0.5.0 — unreleased\n")
	write("a.md", "[ok](docs/b.md#in-a-browser---frontend-web-and-askuser-serve) [ok](docs/b.md#setup-1)\n"+
		"[ok](docs/b.md#050--unreleased) [ok](#title) `[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n"+
		"# Title\n\n[gone](missing.md) [no anchor](docs/b.md#nope) [out](../outside.md) [web](https://example.com/x.md)\n"+
		"![a picture\nover two lines](gone.png)\n")
	problems, n := brokenLinks(root, filepath.Join(root, "a.md"))
	if n != 8 {
		t.Errorf("checked %d relative links, want 8", n)
	}
	want := []string{"missing.md: no such file", "docs/b.md#nope: no heading", "../outside.md: outside the repository", "gone.png: no such file"}
	if len(problems) != len(want) {
		t.Fatalf("problems = %q, want %d of them", problems, len(want))
	}
	for i, w := range want {
		if !strings.Contains(problems[i], w) {
			t.Errorf("problem %d = %q, want it to say %q", i, problems[i], w)
		}
	}
}

// TestChangelog: CHANGELOG.md has a section per version, newest first,
// the unreleased one on top, and cites no issue numbers (users read it).
func TestChangelog(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	heads := regexp.MustCompile(`(?m)^## (\d+)\.(\d+)\.(\d+) — (unreleased|\d{4}-\d{2}-\d{2})$`).FindAllStringSubmatch(text, -1)
	if len(heads) < 2 || heads[0][4] != "unreleased" {
		t.Fatalf("CHANGELOG.md's versions = %q, want \"## X.Y.Z — unreleased\" first, then \"## X.Y.Z — YYYY-MM-DD\" sections", heads)
	}
	for i := 1; i < len(heads); i++ {
		prev, cur := versionKey(heads[i-1]), versionKey(heads[i])
		if cur >= prev || heads[i][4] == "unreleased" || (i > 1 && heads[i][4] > heads[i-1][4]) {
			t.Errorf("CHANGELOG.md: %q comes after %q; newest first, one unreleased on top", heads[i][0], heads[i-1][0])
		}
	}
	if m := regexp.MustCompile(`(?i)\bissues?\s+#?\d+|(^|[\s(])#\d+\b`).FindString(text); m != "" {
		t.Errorf("CHANGELOG.md cites %q: say what changed for users, without issue numbers", strings.TrimSpace(m))
	}
}

// versionKey orders X.Y.Z as a string of fixed-width numbers.
func versionKey(m []string) string {
	return fmt.Sprintf("%06s.%06s.%06s", m[1], m[2], m[3])
}

// mdLink is an inline link or image: [text](target "title"), the text
// possibly over several lines and holding one level of brackets.
var mdLink = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)

// refDef is a reference definition, [name]: target.
var refDef = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)

// htmlRef is a src or href attribute.
var htmlRef = regexp.MustCompile(`\b(?:src|href)="([^"]*)"`)

// brokenLinks reads the Markdown file path and returns a line for each of
// its relative links that does not resolve in the repository at root, and
// how many relative links it checked.
func brokenLinks(root, path string) (problems []string, checked int) {
	b, err := os.ReadFile(path)
	if err != nil {
		return []string{err.Error()}, 0
	}
	rel, _ := filepath.Rel(root, path)
	text := withoutCode(string(b))
	var targets []string
	for _, re := range []*regexp.Regexp{mdLink, refDef, htmlRef} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			targets = append(targets, m[1])
		}
	}
	for _, target := range targets {
		if target == "" || regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:|^//`).MatchString(target) {
			continue // a URL with a scheme: not the repository's
		}
		checked++
		if p := checkLink(root, path, target); p != "" {
			problems = append(problems, fmt.Sprintf("%s: link %s: %s", rel, target, p))
		}
	}
	return problems, checked
}

// checkLink says what is wrong with the relative link target in the file
// from, or "".
func checkLink(root, from, target string) string {
	file, frag, _ := strings.Cut(target, "#")
	file, err := url.PathUnescape(file)
	if err != nil {
		return err.Error()
	}
	dest := from
	if file != "" {
		dest = filepath.Join(filepath.Dir(from), filepath.FromSlash(file))
		if r, err := filepath.Rel(root, dest); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "outside the repository"
		}
		if _, err := os.Stat(dest); err != nil {
			return "no such file"
		}
	}
	if frag == "" {
		return ""
	}
	if !strings.HasSuffix(dest, ".md") {
		return "an anchor into a file that is not Markdown"
	}
	b, err := os.ReadFile(dest)
	if err != nil {
		return err.Error()
	}
	if !anchors(string(b))[frag] {
		return "no heading makes the anchor #" + frag
	}
	return ""
}

// anchors returns the anchors GitHub gives the headings of a Markdown
// text (outside code blocks), and the ids and names of its HTML anchors.
func anchors(text string) map[string]bool {
	seen := map[string]bool{}
	count := map[string]int{}
	heading := regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$`)
	for _, line := range strings.Split(fencedOut(text), "\n") {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := count[slug]; n > 0 {
			seen[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			seen[slug] = true
		}
		count[slug]++
	}
	for _, m := range regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`).FindAllStringSubmatch(text, -1) {
		seen[m[1]] = true
	}
	return seen
}

// slugify is GitHub's anchor for a heading's text: the text as shown
// (links by their text, code without its backquotes, no emphasis or tags),
// lower-cased, without punctuation but hyphens and underscores, each
// space a hyphen.
func slugify(heading string) string {
	heading = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1")
	heading = regexp.MustCompile(`<[^>]+>`).ReplaceAllString(heading, "")
	heading = strings.NewReplacer("`", "", "*", "").Replace(heading)
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fencedOut blanks the lines of fenced code blocks (``` or ~~~), keeping
// the line count.
func fencedOut(text string) string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			lines[i] = ""
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// withoutCode is text with its fenced blocks and code spans blanked, so
// that what looks like a link inside code is not taken for one.
func withoutCode(text string) string {
	text = fencedOut(text)
	var b strings.Builder
	for i := 0; i < len(text); {
		if text[i] != '`' {
			b.WriteByte(text[i])
			i++
			continue
		}
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		run := strings.Repeat("`", n)
		end := strings.Index(text[i+n:], run)
		if end < 0 { // an unmatched run is literal text
			b.WriteString(run)
			i += n
			continue
		}
		b.WriteString(" ")
		i += n + end + n
	}
	return b.String()
}
