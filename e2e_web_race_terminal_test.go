// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// raceScript asks one question, then, once it is answered, another.
const raceScript = `model: scripted-race
turns:
  - text: First the database.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
  - text: Now the deploy.
    tool_calls:
      - id: toolu_deploy
        name: AskUserQuestion
        input: {questions: [{question: "Deploy now?", header: Deploy, multiSelect: false, options: [{label: "Yes", description: Ship it}, {label: "No", description: Wait}]}]}
  - text: "Done."
`

// TestWebRaceTerminalWins (issue 24 §6, on the card): with --frontend
// web,survey a person has the card open in the browser, answers at the
// terminal, then submits the card. The page's answer is refused with 409
// "already answered", and the card says the terminal answered it and shows
// what; the run goes on with the terminal's answer.
func TestWebRaceTerminalWins(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "race.yaml")
	if err := os.WriteFile(script, []byte(raceScript), 0o600); err != nil {
		t.Fatal(err)
	}
	out, outPath := outFile(t)
	p := startTTY(t, repoRoot(t), out, "run", "--frontend", "web,survey", "--script", script, "Set up the service")
	p.prompt("Which database?")
	pageURL := urlPattern.FindString(p.raw.String())
	if pageURL == "" {
		t.Fatalf("no URL on the terminal:\n%s", p.screen.String())
	}
	card := loadWebForm(t, pageURL) // the card, loaded in the browser
	p.send("2")                     // SQLite, at the terminal
	p.prompt("Deploy now?")
	code, body := card.submit(t, url.Values{"q0": {"0"}}) // PostgreSQL, on the page, too late
	if code != http.StatusConflict || !strings.Contains(body, "Already answered") {
		t.Errorf("the page's late answer: status %d, want 409 and already answered:\n%s", code, body)
	}
	for _, want := range []string{"Answered at the terminal.", "<dd>SQLite</dd>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the card lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<dd>PostgreSQL</dd>") {
		t.Errorf("the card shows the page's answer:\n%s", body)
	}
	p.send("1")
	if code, _ := p.exit(); code != 0 {
		t.Fatalf("exit %d\nscreen:\n%s", code, p.screen.String())
	}
	if printed, _ := os.ReadFile(outPath); !strings.Contains(string(printed), "Done.") {
		t.Errorf("printed %q, want the run to finish", printed)
	}
}
