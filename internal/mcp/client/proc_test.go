//go:build linux

package client

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// alive reports whether pid is a running process: not gone, and not a
// zombie waiting to be reaped.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || (s[i+2] != 'Z' && s[i+2] != 'X')
}

func waitGone(t *testing.T, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d is still running", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func TestCloseLeavesNoProcessBehind(t *testing.T) {
	pidFile := t.TempDir() + "/child.pid"
	c := startFixture(t, Options{}, childPIDEnv, pidFile)
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(b))
	server := c.servers[0].proc.cmd.Process.Pid
	if !alive(server) || !alive(child) {
		t.Fatalf("server %d alive %v, child %d alive %v; want both running before Close", server, alive(server), child, alive(child))
	}
	if r := call(t, c, "mcp__fx__echo", `{"text":"hi"}`); r.Content != "echo: hi" {
		t.Fatalf("a child holding stdout must not disturb the server: %+v", r)
	}
	began := time.Now()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, server, child)
	if d := time.Since(began); d > 4*time.Second {
		t.Errorf("Close took %s", d)
	}
}

func TestAServerThatDiesTakesItsChildrenWithIt(t *testing.T) {
	pidFile := t.TempDir() + "/child.pid"
	c := startFixture(t, Options{}, childPIDEnv, pidFile)
	b, _ := os.ReadFile(pidFile)
	child, _ := strconv.Atoi(string(b))
	if r := call(t, c, "mcp__fx__die", `{}`); !r.IsError {
		t.Fatalf("result %+v", r)
	}
	// The child still holds the dead server's stdout; the server is gone
	// all the same, and so is the child, without Close.
	waitGone(t, child)
}

func TestAServerThatIgnoresSIGTERMIsKilled(t *testing.T) {
	dir := t.TempDir()
	began := time.Now()
	_, errs := start(t, Options{LogDir: dir, StartTimeout: 2 * time.Second, CloseGrace: 200 * time.Millisecond}, fixture("stubborn", "stubborn"))
	if len(errs) != 1 || !errors.Is(errs[0], ErrStartTimeout) || !strings.Contains(errs[0].Tail, "stubborn: ignoring SIGTERM") {
		t.Fatalf("errors %v; want a start timeout quoting stderr", errs)
	}
	if d := time.Since(began); d > 6*time.Second {
		t.Errorf("the start and the kill took %s", d)
	}
	log, _ := os.ReadFile(errs[0].Log)
	if !strings.Contains(string(log), "ended: signal: killed") {
		t.Errorf("log does not show the process killed:\n%s", log)
	}
}
