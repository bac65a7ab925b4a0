// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
)

// BenchmarkTapToAgent is the time from a person's tap to the agent going
// on with the answer, on loopback: a live askuser run asks one set
// through the channel, which it serves itself, and the clock runs from the
// tap until the run's stream shows the tool result. slack is Slack's
// Submit over Socket Mode (slackfake); testchan, the baseline in the same
// run, is the same path through the test channel's long poll, so the ratio
// is what Slack's side adds. ns/op and tap-ms (the median) time the tap
// alone, not starting the run.
func BenchmarkTapToAgent(b *testing.B) {
	b.Run("testchan", func(b *testing.B) {
		srv := channeltest.NewServer("tok-bench-0123456789")
		defer srv.Close()
		env := []string{"TESTCHAN_TOKEN=" + srv.Token, "ASKUSER_TESTCHAN_ROOM=room-1", "ASKUSER_TESTCHAN_USERS=U-alice",
			"ASKUSER_TESTCHAN_API_URL=" + srv.URL}
		benchTaps(b, "testchan", env, func(n int) (func(), error) {
			var m channeltest.Message
			if _, ok := srv.WaitFor(waitLimit, func(ms []channeltest.Message) bool {
				if len(ms) > n {
					m = ms[n]
				}
				return len(ms) > n
			}); !ok {
				return nil, os.ErrDeadlineExceeded
			}
			return func() { _, _, _ = srv.Tap(waitLimit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{1}}) }, nil
		})
	})
	b.Run("slack", func(b *testing.B) {
		fake := slackfake.NewServer(slackfake.Config{})
		defer fake.Close()
		env := []string{"SLACK_BOT_TOKEN=" + fake.BotToken(), "SLACK_APP_TOKEN=" + fake.AppToken(),
			"ASKUSER_SLACK_CHANNEL=" + slackfake.Channel, "ASKUSER_SLACK_USERS=U0ALICE", "ASKUSER_SLACK_API_URL=" + fake.URL}
		benchTaps(b, "slack", env, func(n int) (func(), error) {
			var m slackfake.Message
			if !fake.WaitFor(waitLimit, func(s *slackfake.Server) bool {
				ms := s.Messages()
				if len(ms) > n {
					m = ms[n]
				}
				opened, open := s.Connections()
				return len(ms) > n && opened > n && open > 0
			}) {
				return nil, os.ErrDeadlineExceeded
			}
			return func() { _, _ = fake.Submit(waitLimit, m.TS, slackAlice, slackfake.Pick{Options: []int{1}}) }, nil
		})
	})
}

// benchTaps runs b.N live runs asking through channel name; asked waits
// for the n-th run's message and returns the tap that answers it.
func benchTaps(b *testing.B, name string, env []string, asked func(n int) (tap func(), err error)) {
	dir := b.TempDir()
	script := filepath.Join(dir, "db.yaml")
	if err := os.WriteFile(script, []byte(dbSlackScript), 0o600); err != nil {
		b.Fatal(err)
	}
	env = append(env, "ASKUSER_STATE_DIR="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+dir, "ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "NO_COLOR=1")
	var taps []time.Duration
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		out := &syncBuffer{}
		cmd := exec.Command(askuserBin(), "run", "-p", "--output-format", "stream-json", "--frontend", name, "--script", script, "Pick a database")
		cmd.Env, cmd.Stdout = append(os.Environ(), env...), out
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		tap, err := asked(i)
		if err != nil {
			_ = cmd.Process.Kill()
			b.Fatalf("run %d was not asked: %v", i, err)
		}
		b.StartTimer()
		start := time.Now()
		tap()
		for !strings.Contains(out.String(), `"type":"tool_result"`) {
			if time.Since(start) > waitLimit {
				b.StopTimer()
				_ = cmd.Process.Kill()
				b.Fatalf("the agent never went on:\n%s", out)
			}
			time.Sleep(time.Millisecond)
		}
		taps = append(taps, time.Since(start))
		b.StopTimer()
		if err := cmd.Wait(); err != nil {
			b.Fatalf("run %d: %v", i, err)
		}
	}
	slices.Sort(taps)
	b.ReportMetric(float64(taps[len(taps)/2].Microseconds())/1000, "tap-ms")
}
