//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// TestServeOfTheFilesAndOfATeamStore: a serve of a state directory's
// files and a serve of a team store from the same state directory both
// serve (one no longer blocks the other), each first line names what it
// serves (the team store by its URL, password taken out, not the state
// directory), and a second serve of the same team store from there is
// refused, naming the store and the first serve.
func TestServeOfTheFilesAndOfATeamStore(t *testing.T) {
	dbURL := pgtest.DB(t)
	state := filepath.Join(t.TempDir(), "state")
	files := []string{"ASKUSER_STATE_DIR=" + state, "ASKUSER_STORE="}
	team := []string{"ASKUSER_STATE_DIR=" + state, "ASKUSER_STORE=" + dbURL}

	fs := startBackground(t, files, "serve")
	fsURL := fs.url(t)
	ts := startBackground(t, team, "serve")
	tsURL := ts.url(t)
	if fsURL == tsURL {
		t.Fatalf("both serves print %s", fsURL)
	}
	first := func(p *bgAskuser) string {
		line, _, _ := strings.Cut(p.stderr.String(), "\n")
		return line
	}
	if want := "askuser: inbox of " + state + " at " + fsURL; first(fs) != want {
		t.Errorf("the files' serve begins %q, want %q", first(fs), want)
	}
	shown := regexp.MustCompile(`^askuser: inbox of the team store ("postgres[^"]*") at ` + regexp.QuoteMeta(tsURL) + `$`).FindStringSubmatch(first(ts))
	if shown == nil {
		t.Fatalf("the team store's serve begins %q, want it to name the team store", first(ts))
	}
	if u, err := url.Parse(dbURL); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && strings.Contains(first(ts), pw) {
			t.Errorf("the first line shows the store's password: %s", first(ts))
		}
	}
	// The files' serve kept its address where runs of the files look.
	if b, _ := os.ReadFile(filepath.Join(state, "serve.url")); strings.TrimSpace(string(b)) != fsURL {
		t.Errorf("serve.url holds %q, want the files' serve's %s", b, fsURL)
	}

	again := startBackground(t, team, "serve")
	tu, _ := url.Parse(tsURL)
	want := fmt.Sprintf("askuser: serve: the team store %s from %s is served by another askuser serve (pid %d, at http://%s/); stop it first, or serve another --state-dir\n",
		shown[1], state, ts.cmd.Process.Pid, tu.Host)
	if code := again.exit(t); code != 2 || again.stderr.String() != want {
		t.Errorf("a second serve of the team store: exit %d, stderr\n%s\nwant exit 2 and\n%s", code, again.stderr, want)
	}
	for _, p := range []*bgAskuser{fs, ts} {
		_ = p.cmd.Process.Signal(syscall.SIGINT)
		if code := p.exit(t); code != 0 {
			t.Errorf("serve after Ctrl+C: exit %d\n%s", code, p.stderr)
		}
	}
}
