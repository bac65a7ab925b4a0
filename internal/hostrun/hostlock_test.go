//go:build unix

package hostrun

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A resume that finds the agent of a session still running (its askuser
// was killed) waits for it to end, saying so once, and then goes on; one
// that still runs past the bound is an error wrapping ErrAgentRuns.
func TestResumeWaitsForAnAgentLeftRunning(t *testing.T) {
	dir := t.TempDir()
	running, err := takeHostLock(dir, "s1") // the agent's inherited lock
	if err != nil {
		t.Fatal(err)
	}
	ended := time.AfterFunc(600*time.Millisecond, running.release)
	defer ended.Stop()
	var said bytes.Buffer
	lock, err := waitHostLock(context.Background(), dir, "s1", &said)
	if err != nil {
		t.Fatalf("the lock once the agent ended: %v", err)
	}
	lock.release()
	if n := strings.Count(said.String(), "still runs"); n != 1 {
		t.Errorf("said %q; want one line saying the agent still runs", said.String())
	}

	still, err := takeHostLock(dir, "s2")
	if err != nil {
		t.Fatal(err)
	}
	defer still.release()
	was := agentEndWait
	agentEndWait = 300 * time.Millisecond
	defer func() { agentEndWait = was }()
	if _, err := waitHostLock(context.Background(), dir, "s2", nil); !errors.Is(err, ErrAgentRuns) {
		t.Errorf("an agent still running past the bound: %v, want ErrAgentRuns", err)
	}
}
