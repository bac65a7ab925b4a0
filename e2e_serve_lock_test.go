// The askuser binary runs on these systems; flock holds there.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestServeOnePerStateDir: a second askuser serve on a state directory
// another serves is refused before it serves anything, naming the first
// one's pid and address without its token, and leaves the first one's
// serve.url as it was (a second serve used to replace it, and remove it
// when it stopped, while the first still ran). Once the first stops,
// serve starts again.
func TestServeOnePerStateDir(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	env := []string{"ASKUSER_STATE_DIR=" + state}
	first := startBackground(t, env, "serve")
	firstURL := first.url(t)
	u, err := url.Parse(firstURL)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("token")
	readAddress := func() string {
		b, _ := os.ReadFile(filepath.Join(state, "serve.url"))
		return strings.TrimSpace(string(b))
	}
	if got := readAddress(); got != firstURL {
		t.Fatalf("serve.url holds %q, want %q", got, firstURL)
	}

	second := startBackground(t, env, "serve")
	want := fmt.Sprintf("askuser: serve: %s is served by another askuser serve (pid %d, at http://%s/); stop it first, or serve another --state-dir\n",
		state, first.cmd.Process.Pid, u.Host)
	if code := second.exit(t); code != 2 || second.stderr.String() != want {
		t.Errorf("a second serve: exit %d, stderr\n%s\nwant exit 2 and\n%s", code, second.stderr, want)
	}
	if token == "" || strings.Contains(second.stderr.String(), token) {
		t.Errorf("the refusal shows the first serve's token %q: %s", token, second.stderr)
	}
	if got := readAddress(); got != firstURL {
		t.Errorf("after the second serve, serve.url holds %q, want the first's %q", got, firstURL)
	}

	_ = first.cmd.Process.Signal(syscall.SIGINT)
	if code := first.exit(t); code != 0 {
		t.Fatalf("serve after Ctrl+C: exit %d\n%s", code, first.stderr)
	}
	again := startBackground(t, env, "serve")
	if got := again.url(t); readAddress() != got {
		t.Errorf("a serve after the first stopped: serve.url holds %q, want %q", readAddress(), got)
	}
	_ = again.cmd.Process.Signal(syscall.SIGINT)
	if code := again.exit(t); code != 0 {
		t.Errorf("serve after Ctrl+C: exit %d\n%s", code, again.stderr)
	}
}
