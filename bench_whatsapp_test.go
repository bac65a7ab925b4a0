// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
)

// BenchmarkWhatsAppTapToContinue measures how long a live run takes to go
// on after a person taps a WhatsApp reply button, on loopback: from the
// fake's signed webhook POST to askuser serve, through the answer mailbox
// the run polls, to the tool result in the run's events. The same run
// answered over JSON lines on its standard input is the baseline,
// measured under the same load:
//
//	tap-ms    median milliseconds from the tap to the tool result
//	stdio-ms  the same from writing the answer line
//	x-stdio   tap-ms over stdio-ms
//
//	go test -run '^$' -bench WhatsAppTapToContinue -benchtime 7x .
func BenchmarkWhatsAppTapToContinue(b *testing.B) {
	w, lines := newWARig(b), newChanRig(b)
	w.serve(b)
	var taps, stdio []time.Duration
	for range b.N {
		taps = append(taps, waTapOnce(b, w))
		stdio = append(stdio, lineOnce(b, lines))
	}
	tap, line := ms(median(taps)), ms(median(stdio))
	b.ReportMetric(tap, "tap-ms")
	b.ReportMetric(line, "stdio-ms")
	b.ReportMetric(tap/line, "x-stdio")
}

// waTapOnce runs the script through WhatsApp and taps its question.
func waTapOnce(b *testing.B, w *waRig) time.Duration {
	b.StopTimer()
	before := len(w.fake.Sent())
	p := startBackground(b, w.env, "run", "-p", "--output-format", "stream-json", "--frontend", "whatsapp", "--script", w.script, "Set up")
	var m whatsappfake.Sent
	_, ok := w.fake.WaitFor(waitLimit, func(ms []whatsappfake.Sent) bool {
		for _, x := range ms[min(before, len(ms)):] {
			if waAsking("Database")(x) {
				m = x
				return true
			}
		}
		return false
	})
	if !ok {
		b.Fatalf("not asked: %s", p.stderr)
	}
	b.StartTimer()
	began := time.Now()
	took(b)(w.fake.Tap(waAlice, m, 1))
	d := waitOutput(b, p, `"tool_result"`).Sub(began)
	b.StopTimer()
	if code := p.exit(b); code != 0 {
		b.Fatalf("exit %d: %s", code, p.stderr)
	}
	return d
}
