package cmdutil

import (
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

func TestTimeoutNote(t *testing.T) {
	d := 5 * time.Minute
	policy := ask.Answer{Source: ask.SourcePolicy, Reason: ask.TimeoutReason(d)}
	if got := TimeoutNote(d, []ask.Answer{policy}); got != "no answer within 5m: took the recommended option" {
		t.Errorf("timeoutNote = %q", got)
	}
	for _, a := range []ask.Answer{{Source: ask.SourcePerson}, {Source: ask.SourcePolicy, Reason: "the answers file said auto"}} {
		if got := TimeoutNote(d, []ask.Answer{a}); got != "" {
			t.Errorf("timeoutNote(%+v) = %q, want nothing", a, got)
		}
	}
	for d, want := range map[time.Duration]string{5 * time.Minute: "5m", time.Hour: "1h", 90 * time.Second: "1m30s", 2 * time.Second: "2s"} {
		if got := ShortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s ago", 45 * time.Second: "45s ago", 3 * time.Minute: "3m ago", 5*time.Hour + 59*time.Minute: "5h ago",
		47 * time.Hour: "47h ago", 80 * time.Hour: "3d ago",
	} {
		if got := Ago(d); got != want {
			t.Errorf("ago(%v) = %q, want %q", d, got, want)
		}
	}
}
