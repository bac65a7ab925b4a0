//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/askuser/askuser/internal/termtest"
	"github.com/chromedp/chromedp"
	"github.com/hinshun/vt10x"
)

// keyRight is → (the other keys are in e2e_tty_test.go, e2e_termproc_test.go).
const keyRight = "\x1b[C"

// termShot is one panel of the picture: the keys pressed to reach it, what
// it shows, and the screen's cells at that moment.
type termShot struct {
	keys  []string // as labelled on the panel
	says  string
	cells [][]termtest.Cell
}

// TestTerminalScreenshots saves a picture of the terminal prompt moving
// between the questions of a set, for the manual, into the directory
// ASKUSER_SCREENSHOTS names (scripts/screenshots.sh); without it the test
// skips. It runs the binary on a 90×24 pseudo-terminal in colour, waits
// for each screen it means to show (so a broken prompt fails here instead
// of drawing a wrong picture), keeps every cell with its colours, and has
// Chromium draw the four screens side by side as a dark terminal would.
func TestTerminalScreenshots(t *testing.T) {
	dir := os.Getenv("ASKUSER_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ASKUSER_SCREENSHOTS=DIR (scripts/screenshots.sh) to save a screenshot of the terminal prompt")
	}
	out, outPath := outFile(t)
	p := startProc(t, termSize{90, 24}, repoRoot(t), out, []string{"NO_COLOR="},
		askuserBin(), "ask", "testdata/questions/auth.json", "--frontend", "survey")
	var shots []termShot
	for _, step := range []struct {
		send, keys []string
		says       string
		wants      []string // on the screen, all of them
	}{
		{nil, []string{"askuser ask auth.json"}, "the first question, under the tab strip",
			[]string{"☐ Auth Method  ☐ Providers  Submit", "Question 1 of 2", "❯ ● 1. OAuth 2.0 (Recommended)"}},
		{[]string{keyDown, keyEnter}, []string{"↓", "Enter"}, "JWT picked: on to question 2, Auth Method ticked",
			[]string{"☑ Auth Method  ☐ Providers  Submit", "Question 2 of 2", "Which OAuth providers"}},
		{[]string{keyLeft}, []string{"←"}, "back to question 1, JWT still picked",
			[]string{"☑ Auth Method  ☐ Providers  Submit", "Question 1 of 2", "❯ ● 2. JWT"}},
		{[]string{keyRight, keySpace, keyDown, keySpace, keyEnter}, []string{"→", "Space", "↓", "Space", "Enter"},
			"two providers ticked: the review before submitting",
			[]string{"☑ Auth Method  ☑ Providers  Submit", "Review your answers", "1. Auth Method: JWT", "2. Providers: Google, GitHub"}},
	} {
		p.send(step.send...)
		p.tm.WaitText(step.wants...)
		p.tm.WaitRaw()
		shots = append(shots, termShot{step.keys, step.says, p.screen.Cells()})
	}
	// The picture is meant in colour: a prompt drawn without it fails.
	for i, shot := range shots[:3] {
		if c, ok := firstCell(shot.cells, '❯'); !ok || !c.Bold || c.FG == vt10x.DefaultFG {
			t.Fatalf("panel %d: the cursor ❯ is drawn %+v, want it bold in a colour (is NO_COLOR set?)", i+1, c)
		}
	}
	p.send(keyEnter)
	if code, _ := p.exit(); code != 0 {
		t.Fatalf("exit code %d after submitting the review\nscreen:\n%s", code, p.screen.Dump())
	}
	if got, _ := os.ReadFile(outPath); string(got) != wantAuthJWT {
		t.Errorf("askuser printed\n%s\nwant\n%s", got, wantAuthJWT)
	}

	page := filepath.Join(t.TempDir(), "terminal-moves.html")
	if err := os.WriteFile(page, []byte(shotsPage(shots)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t, 1600, 1000)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(css(`#shots`)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terminal-moves.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("terminal-moves.png: %d bytes", len(shot))
}

// firstCell is the first cell on the screen showing r.
func firstCell(cells [][]termtest.Cell, r rune) (termtest.Cell, bool) {
	for _, row := range cells {
		for _, c := range row {
			if c.Char == r {
				return c, true
			}
		}
	}
	return termtest.Cell{}, false
}
