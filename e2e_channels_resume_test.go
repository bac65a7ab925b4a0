// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/cmdutil"
)

// askuser resume --frontend <channel>: a person resumes a suspended
// session by answering its question in a chat channel
// (e2e_channels_test.go has the rig).

// A run asks through the channel, nobody taps within --ask-timeout, and
// it stops to wait (exit 6); its message stays answerable.
//
// askuser resume ID --frontend slack, with Slack not set up, is a usage
// error naming every variable to set, and changes nothing.
//
// askuser resume ID --frontend testchan then waits on that message,
// holding the channel itself (no serve runs): alice's tap answers it, the
// agent goes on with her answer, named as hers and marked as given later,
// and the widget says who answered. Nothing is sent twice.
func TestResumeThroughAChannel(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the suspended run", asking("Database"))
	before := cr.journal(t, id)

	unset := []string{"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "ASKUSER_SLACK_CHANNEL", "ASKUSER_SLACK_USERS"}
	slack := exec.Command(askuserBin(), "resume", id, "-p", "--output-format", "json", "--frontend", "slack")
	slack.Dir, slack.Env = repoRoot(t), append(os.Environ(), cr.env...)
	for _, v := range unset {
		slack.Env = append(slack.Env, v+"=")
	}
	out, _ := slack.CombinedOutput()
	if code := slack.ProcessState.ExitCode(); code != cmdutil.ExitUsage {
		t.Errorf("resume --frontend slack without its settings: exit %d, want %d (usage)\n%s", code, cmdutil.ExitUsage, out)
	}
	for _, v := range unset {
		if !strings.Contains(string(out), v) {
			t.Errorf("resume --frontend slack without its settings does not name %s:\n%s", v, out)
		}
	}
	if after := cr.journal(t, id); after != before {
		t.Errorf("the failed resume changed the journal:\n%s", strings.TrimPrefix(after, before))
	}

	resume := startBackground(t, cr.env, "resume", id, "-p", "--output-format", "json", "--frontend", "testchan")
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := resume.exit(t); code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, resume.stdout, resume.stderr)
	}
	res := resume.stdout.String()
	for _, want := range []string{`"subtype":"success"`, `Set up with what I was told:`,
		`Selected: SQLite\n   Via: @alice on testchan\n   Answered later: by a person`} {
		if !strings.Contains(res, want) {
			t.Errorf("resume's result lacks %s:\n%s", want, res)
		}
	}
	j := cr.journal(t, id)
	if strings.Count(j, `{"type":"answered",`) != 1 || !strings.Contains(j, `"via":"@alice on testchan"`) || !strings.Contains(j, `"status":"success"`) {
		t.Errorf("the journal does not record the run finished with alice's answer:\n%s", j)
	}
	// The tap is the answer: nothing says another answer won.
	if strings.Contains(resume.stderr.String(), "already answered") {
		t.Errorf("resume says its own answer was another's:\n%s", resume.stderr)
	}
	// The resume has exited: the widget shows the outcome now, or the
	// resume's log says why not.
	if u, ok := cr.srv.Find(waitLimit, func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 }); !ok {
		t.Errorf("the widget was never updated; the platform has %+v\nresume's stderr:\n%s", cr.srv.Messages(), resume.stderr)
	} else if len(u.Updates) != 1 || !strings.HasPrefix(u.Updates[0], "Answered: SQLite — by @alice on testchan, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}
	if n := len(cr.srv.Messages()); n != 1 {
		t.Errorf("the platform has %d messages, want the one question, answerable still: %+v", n, cr.srv.Messages())
	}
}
