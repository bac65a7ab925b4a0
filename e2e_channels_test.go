// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// These tests drive real askuser processes against the test channel's
// fake platform, on loopback: a person taps in the chat, and the agent
// goes on. askuser is built with the test channel linked in (TestMain).

// chanScript asks one set, then ends with what it was told.
const chanScript = `model: scripted-chan
turns:
  - text: One thing first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
  - text: "Set up with what I was told:\n{{tool_results}}"
`

// chanRig is a fake platform and the environment that points askuser at
// it, with its own state directory; alice and bob may answer.
type chanRig struct {
	srv    *channeltest.Server
	env    []string
	state  string
	script string
}

func newChanRig(t *testing.T) *chanRig {
	t.Helper()
	srv := channeltest.NewServer("tok-e2e-0123456789")
	t.Cleanup(srv.Close)
	cr := &chanRig{srv: srv, state: filepath.Join(t.TempDir(), "state"), script: filepath.Join(t.TempDir(), "chan.yaml")}
	if err := os.WriteFile(cr.script, []byte(chanScript), 0o600); err != nil {
		t.Fatal(err)
	}
	cr.env = []string{"ASKUSER_STATE_DIR=" + cr.state, "XDG_CONFIG_HOME=" + t.TempDir(), "TESTCHAN_TOKEN=" + srv.Token,
		"ASKUSER_TESTCHAN_ROOM=room-1", "ASKUSER_TESTCHAN_USERS=U-alice,U-bob", "ASKUSER_TESTCHAN_API_URL=" + srv.URL,
		"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD="}
	return cr
}

// message waits for a message that cond accepts.
func (cr *chanRig) message(t *testing.T, what string, cond func(channeltest.Message) bool) channeltest.Message {
	t.Helper()
	var found channeltest.Message
	_, ok := cr.srv.WaitFor(waitLimit, func(ms []channeltest.Message) bool {
		for _, m := range ms {
			if cond(m) {
				found = m
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("no message %s; the platform has %+v", what, cr.srv.Messages())
	}
	return found
}

func asking(header string) func(channeltest.Message) bool {
	return func(m channeltest.Message) bool { return strings.Contains(m.Text, header+":") }
}

// tap taps as alice and requires the tap to be taken.
func (cr *chanRig) tap(t *testing.T, m channeltest.Message, picks ...channeltest.Pick) time.Time {
	t.Helper()
	at := time.Now()
	if _, v, err := cr.srv.Tap(waitLimit, "U-alice", "@alice", m, picks...); err != nil || !v.OK {
		t.Fatalf("alice's tap: %+v, %v", v, err)
	}
	return at
}

// A live run asks through the channel, which it serves itself (nothing
// else does); alice's tap answers it, the agent goes on with her answer,
// named as hers, and the widget says who answered.
func TestChannelAnswersALiveRun(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	p := startBackground(t, cr.env, "run", "-p", "--output-format", "stream-json", "--frontend", "testchan", "--script", cr.script, "Set up the project")
	m := cr.message(t, "asking about the database", asking("Database"))
	if m.Title != "Set up the project" {
		t.Errorf("the message's title: %q", m.Title)
	}
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	events := p.stdout.String()
	for _, want := range []string{`"selectedOptions":["SQLite"],"source":"person","via":"@alice on testchan"`,
		`Selected: SQLite\n   Via: @alice on testchan\n\nProceeding with user selections.`, `"subtype":"success"`} {
		if !strings.Contains(events, want) {
			t.Errorf("the run's events lack %s:\n%s", want, events)
		}
	}
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if !strings.HasPrefix(u.Updates[0], "Answered: SQLite — by @alice on testchan, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}
}
