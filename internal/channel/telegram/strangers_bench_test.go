package telegram_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// BenchmarkPersonAfterStrangers measures how long alice's press takes to
// become the answer when 2,000 strangers pressed the question's buttons
// just before her (their updates queued at the fake Bot API ahead of
// hers), against her press alone (alone), measured in the same run on
// loopback, where answerCallbackQuery takes 20 ms (a round trip to a
// real Bot API). The figure is press-to-answer-ms; the ratio of the two
// is what issue 30 asks about (a stranger must never delay the person).
//
//	go test -run '^$' -bench PersonAfterStrangers -benchtime 3x ./internal/channel/telegram/
func BenchmarkPersonAfterStrangers(b *testing.B) {
	for _, strangers := range []int{0, 2000} {
		name := "alone"
		if strangers > 0 {
			name = fmt.Sprintf("after-%d-strangers", strangers)
		}
		b.Run(name, func(b *testing.B) {
			rg := newRig(b, testTimings)
			rg.srv.Delay("answerCallbackQuery", 20*time.Millisecond)
			for i := range b.N {
				b.StopTimer()
				before := len(rg.srv.Messages())
				a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: fmt.Sprintf("ask_%d", i), Questions: []ask.Question{dbQuestion}})
				m := rg.message("asking", func(m telegramfake.Message) bool {
					return m.ID > before && strings.Contains(m.Text, "Database") && m.Keyboard != nil
				})
				for s := range strangers {
					if _, err := rg.srv.Press(telegramfake.User{ID: int64(10000 + s), FirstName: "Stranger"}, m.ID, "SQLite"); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				began := time.Now()
				if _, err := rg.srv.Press(alice, m.ID, "PostgreSQL (Recommended)"); err != nil {
					b.Fatal(err)
				}
				if _, err := a.Wait(b); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(time.Since(began).Milliseconds()), "press-to-answer-ms")
			}
		})
	}
}
