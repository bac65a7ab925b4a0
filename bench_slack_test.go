// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/slack/slackfake"
)

// BenchmarkSlackTapToContinue is BenchmarkTapToContinue for Slack: the
// time from a person's Submit on the Block Kit message (over Socket Mode,
// to slackfake on loopback) to the tool result in the run's events, the
// run serving Slack itself, and askuser serve holding it. The baseline,
// under the same load, is the same run answered over JSON lines on its
// standard input:
//
//	slack-ms   median milliseconds from the Submit to the tool result, the
//	           run serving Slack
//	served-ms  the same, askuser serve holding Slack
//	stdio-ms   the same from writing the answer line
//	x-stdio    slack-ms over stdio-ms; served-x the same for served-ms
//
//	go test -run '^$' -bench SlackTapToContinue -benchtime 7x .
func BenchmarkSlackTapToContinue(b *testing.B) {
	own, served, cr := newSlackRig(b), newSlackRig(b), newChanRig(b)
	script := own.file(b, "db.yaml", dbSlackScript)
	serve := startBackground(b, served.env, "serve")
	waitErr(b, serve, "serving chat channels: slack")
	served.connections(b, 1)
	var taps, serveds, lines []time.Duration
	for range b.N {
		taps = append(taps, slackTapOnce(b, own, script, true))
		serveds = append(serveds, slackTapOnce(b, served, script, false))
		lines = append(lines, lineOnce(b, cr))
	}
	tap, srv, line := ms(median(taps)), ms(median(serveds)), ms(median(lines))
	b.ReportMetric(tap, "slack-ms")
	b.ReportMetric(srv, "served-ms")
	b.ReportMetric(line, "stdio-ms")
	b.ReportMetric(tap/line, "x-stdio")
	b.ReportMetric(srv/line, "served-x")
}

// slackTapOnce runs the script through Slack and submits its question;
// holds says the run serves Slack itself (it opens its own socket).
func slackTapOnce(b *testing.B, r *slackRig, script string, holds bool) time.Duration {
	b.StopTimer()
	before := len(r.fake.Messages())
	opened, _ := r.fake.Connections()
	p := startBackground(b, r.env, "run", "-p", "--output-format", "stream-json", "--frontend", "slack", "--script", script, "Set up")
	if holds {
		r.connections(b, opened+1)
	}
	r.fake.WaitFor(waitLimit, func(s *slackfake.Server) bool { return len(s.Messages()) > before })
	m := r.fake.Messages()[before]
	b.StartTimer()
	e := r.submit(b, m, slackAlice, false, slackfake.Pick{Options: []int{1}})
	took := waitOutput(b, p, `"tool_result"`).Sub(e.Sent)
	b.StopTimer()
	if code := p.exit(b); code != 0 {
		b.Fatalf("exit %d: %s", code, p.stderr)
	}
	return took
}
