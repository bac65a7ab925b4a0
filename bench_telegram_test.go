// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// BenchmarkTelegramTapToContinue measures how long a live run takes to go
// on after a person presses a button in Telegram: from the press (the
// update queued at the fake Bot API) to the tool result in the run's
// events, on loopback. Two ways: the run serves the channel itself (its
// own long poll gets the press), and askuser serve holds the channel (the
// run finds the answer in its mailbox). The baseline is the same run
// answered over JSON lines on its standard input, measured in the same
// run under the same load:
//
//	tap-ms     median milliseconds from the press to the tool result, the
//	           run serving the channel
//	served-ms  the same, askuser serve holding the channel
//	stdio-ms   the same from writing the answer line
//	x-stdio    tap-ms over stdio-ms; served-x the same for served-ms
//
//	go test -run '^$' -bench TelegramTapToContinue -benchtime 5x .
func BenchmarkTelegramTapToContinue(b *testing.B) {
	own, served := newTgRig(b), newTgRig(b)
	served.startServe(b)
	script := own.script(b, "one.yaml", chanScript)
	baseline := &chanRig{env: own.env, script: script}
	benchTapToContinue(b, func() time.Duration { return tgTapOnce(b, own, script) },
		func() time.Duration { return tgTapOnce(b, served, script) }, func() time.Duration { return lineOnce(b, baseline) })
}

// tgTapOnce runs script asking in Telegram and presses its answer.
func tgTapOnce(b *testing.B, r *tgRig, script string) time.Duration {
	b.StopTimer()
	p := startBackground(b, r.env, "run", "-p", "--output-format", "stream-json", "--frontend", "telegram", "--script", script, "Set up")
	before := len(r.srv.Messages())
	m := r.message(b, "asked", func(x telegramfake.Message) bool { return x.ID > before && x.Keyboard != nil })
	b.StartTimer()
	began := time.Now()
	q, err := r.srv.Press(tgAlice, m.ID, "SQLite")
	if err != nil {
		b.Fatal(err)
	}
	took := waitOutput(b, p, `"tool_result"`).Sub(began)
	b.StopTimer()
	if _, err := r.srv.Answer(waitLimit, q); err != nil {
		b.Fatal(err)
	}
	if code := p.exit(b); code != 0 {
		b.Fatalf("exit %d: %s", code, p.stderr)
	}
	return took
}
