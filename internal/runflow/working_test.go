package runflow

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/iostreams"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestWorking(t *testing.T) {
	for _, dumb := range []bool{false, true} {
		var buf lockedBuffer
		w := &working{w: &buf, dumb: dumb}
		began := time.Now()
		w.start()
		w.start() // running: no second line
		// It shows once the delay has passed; how soon after is the
		// scheduler's business, so wait for it (the bound only ends a
		// wait for an indicator that never shows).
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(buf.String(), "working") && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		w.stop()
		out := buf.String()
		if m := regexp.MustCompile(`working (\d+)s`).FindStringSubmatch(out); m == nil {
			t.Errorf("dumb=%v: the indicator never showed: %q", dumb, out)
		} else if n, _ := strconv.Atoi(m[1]); n > int(time.Since(began).Seconds()) {
			t.Errorf("dumb=%v: %q counts more seconds than have passed since start", dumb, out)
		}
		if dumb && strings.Contains(out, "\x1b") {
			t.Errorf("TERM=dumb, yet escape sequences: %q", out)
		}
		// The line is gone after stop: it ends erased.
		if !dumb && !strings.HasSuffix(out, "\r\x1b[K") || dumb && !strings.HasSuffix(out, "\r"+strings.Repeat(" ", len([]rune("⠋ working 0s")))+"\r") {
			t.Errorf("dumb=%v: not erased at the end: %q", dumb, out)
		}
		n := len(out)
		time.Sleep(2 * workingTick)
		if len(buf.String()) != n {
			t.Errorf("dumb=%v: written to after stop", dumb)
		}
	}
	// A quick step shows nothing at all.
	var buf lockedBuffer
	w := &working{w: &buf}
	w.start()
	w.stop()
	w.stop()
	if buf.String() != "" {
		t.Errorf("a step shorter than the delay drew %q", buf.String())
	}
	var none *working
	none.start()
	none.stop()
}

func TestNewWorking(t *testing.T) {
	ios, _, _ := iostreams.Test("")
	if newWorking(ios, Options{format: outText}) != nil {
		t.Error("an indicator for a standard error that is not a terminal")
	}
	ios.SetStderrTTY(true)
	if newWorking(ios, Options{format: outText}) == nil {
		t.Error("no indicator at a terminal")
	}
	if newWorking(ios, Options{format: outText, print: true}) != nil || newWorking(ios, Options{format: outStreamJSON}) != nil {
		t.Error("an indicator in -p or machine output")
	}
}
