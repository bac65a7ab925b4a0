// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// BenchmarkTelegramTapToContinue measures how long the agent takes to go
// on after a person presses a button in Telegram, on loopback, from the
// press (its update queued at the fake Bot API): to the tool result of a
// live run serving the channel itself (tap-ms) or while askuser serve
// holds it (served-ms), and to the session recording the answer when its
// run had stopped to wait and serve resumes it (late-ms). The baseline is
// the same run answered over JSON lines on its standard input (stdio-ms),
// measured in the same benchmark under the same load; x-stdio and
// served-x are the ratios.
//
//	go test -run '^$' -bench TelegramTapToContinue -benchtime 5x .
func BenchmarkTelegramTapToContinue(b *testing.B) {
	own, served := newTgRig(b), newTgRig(b)
	served.startServe(b)
	script := own.script(b, "one.yaml", chanScript)
	baseline := &chanRig{env: own.env, script: script}
	benchWays(b, tapWay{"tap-ms", func() time.Duration { return tgTapOnce(b, own, script) }},
		tapWay{"served-ms", func() time.Duration { return tgTapOnce(b, served, script) }},
		tapWay{"late-ms", func() time.Duration { return tgLateOnce(b, served, script) }},
		tapWay{"stdio-ms", func() time.Duration { return lineOnce(b, baseline) }})
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

// tgLateOnce suspends a run on its question, presses the answer, and
// times it until the session, resumed by serve, records it.
func tgLateOnce(b *testing.B, r *tgRig, script string) time.Duration {
	b.StopTimer()
	before := len(r.srv.Messages())
	id, _ := suspendThrough(b, r.env, "telegram", script)
	m := r.message(b, "of the waiting session", func(x telegramfake.Message) bool { return x.ID > before && x.Keyboard != nil })
	b.StartTimer()
	began := time.Now()
	q, err := r.srv.Press(tgAlice, m.ID, "SQLite")
	if err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(waitLimit); !strings.Contains(r.journal(b, id), `{"type":"answered",`); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("session %s never took the answer", id)
		}
	}
	took := time.Since(began)
	b.StopTimer()
	r.srv.Answer(waitLimit, q)
	r.reply(b, m.ID, "The agent went on and finished") // let it finish before the next
	return took
}
