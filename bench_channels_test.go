// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// BenchmarkTapToContinue measures how long a live run takes to go on
// after a person answers in a chat channel: from the tap to the tool
// result in the run's events, on loopback. Two ways: the run serves the
// channel itself (the tap reaches the mailbox in its own process), and
// askuser serve holds the channel (the run finds the answer by polling its
// mailbox). Between them the same run is answered over JSON lines on its
// standard input, the fastest way askuser has, as the baseline measured
// under the same load:
//
//	tap-ms     median milliseconds from the tap to the tool result, the
//	           run serving the channel
//	served-ms  the same, askuser serve holding the channel
//	late-ms    median milliseconds from a tap on a question whose run
//	           stopped to wait (exit 6) to the session, resumed in the
//	           background by askuser serve, recording the answer
//	stdio-ms   the same as tap-ms from writing the answer line
//	x-stdio    tap-ms over stdio-ms; served-x the same for served-ms
//
//	go test -run '^$' -bench TapToContinue -benchtime 7x .
func BenchmarkTapToContinue(b *testing.B) {
	own, served := newChanRig(b), newChanRig(b)
	served.startServe(b)
	benchWays(b, tapWay{"tap-ms", func() time.Duration { return tapOnce(b, own) }},
		tapWay{"served-ms", func() time.Duration { return tapOnce(b, served) }},
		tapWay{"late-ms", func() time.Duration { return lateOnce(b, served) }},
		tapWay{"stdio-ms", func() time.Duration { return lineOnce(b, own) }})
}

// tapWay is one way a run is answered, timed once by once.
type tapWay struct {
	metric string
	once   func() time.Duration
}

// benchWays times each way b.N times, interleaved so they share the load,
// and reports each median in milliseconds, and tap-ms and served-ms over
// stdio-ms as x-stdio and served-x.
func benchWays(b *testing.B, ways ...tapWay) {
	took := make([][]time.Duration, len(ways))
	for range b.N {
		for i, w := range ways {
			took[i] = append(took[i], w.once())
		}
	}
	med := map[string]float64{}
	for i, w := range ways {
		med[w.metric] = ms(median(took[i]))
		b.ReportMetric(med[w.metric], w.metric)
	}
	if base := med["stdio-ms"]; base > 0 {
		b.ReportMetric(med["tap-ms"]/base, "x-stdio")
		b.ReportMetric(med["served-ms"]/base, "served-x")
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// tapOnce runs the script through the channel and taps its question.
func tapOnce(b *testing.B, cr *chanRig) time.Duration {
	b.StopTimer()
	p := startBackground(b, cr.env, "run", "-p", "--output-format", "stream-json", "--frontend", "testchan", "--script", cr.script, "Set up")
	before := len(cr.srv.Messages())
	m := cr.message(b, "asked", func(x channeltest.Message) bool { return x.ID > before })
	b.StartTimer()
	began := cr.tap(b, m, channeltest.Pick{Options: []int{1}})
	took := waitOutput(b, p, `"tool_result"`).Sub(began)
	b.StopTimer()
	if code := p.exit(b); code != 0 {
		b.Fatalf("exit %d: %s", code, p.stderr)
	}
	return took
}

// lateOnce suspends a run on its question, then taps it: askuser serve
// resumes the session, which records the answer.
func lateOnce(b *testing.B, cr *chanRig) time.Duration {
	b.StopTimer()
	before := len(cr.srv.Messages())
	id := cr.suspend(b)
	m := cr.message(b, "of the waiting session", func(x channeltest.Message) bool { return x.ID > before })
	b.StartTimer()
	began := cr.tap(b, m, channeltest.Pick{Options: []int{1}})
	for deadline := time.Now().Add(waitLimit); !strings.Contains(cr.journal(b, id), `{"type":"answered",`); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("session %s never took the answer", id)
		}
	}
	took := time.Since(began)
	b.StopTimer()
	cr.replied(b, m) // let it finish before the next
	return took
}

// lineOnce runs the script over JSON lines and answers its question on
// standard input.
func lineOnce(b *testing.B, cr *chanRig) time.Duration {
	b.StopTimer()
	cmd := exec.Command(askuserBin(), "run", "-p", "--output-format", "stream-json", "--frontend", "stdio", "--script", cr.script, "Set up")
	cmd.Dir, cmd.Env = repoRoot(b), append(os.Environ(), cr.env...)
	in, _ := cmd.StdinPipe()
	p := &bgAskuser{cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.stdout, p.stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	waitOutput(b, p, `"type":"question"`)
	b.StartTimer()
	began := time.Now()
	io.WriteString(in, `{"id":"toolu_db","answers":[{"question":"Which database should we use?","selectedOptions":["SQLite"]}]}`+"\n")
	took := waitOutput(b, p, `"tool_result"`).Sub(began)
	b.StopTimer()
	in.Close()
	if code := p.exit(b); code != 0 {
		b.Fatalf("exit %d: %s", code, p.stderr)
	}
	return took
}

// waitOutput waits until p's standard output holds want, and says when.
func waitOutput(tb testing.TB, p *bgAskuser, want string) time.Time {
	tb.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(time.Millisecond) {
		if strings.Contains(p.stdout.String(), want) {
			return time.Now()
		}
		if time.Now().After(deadline) {
			tb.Fatalf("no %s on askuser's output:\n%s\n%s", want, p.stdout, p.stderr)
		}
	}
}
