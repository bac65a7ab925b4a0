package serve

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/statefile"
)

// One askuser serve per state directory: two would each write serve.url
// (and the one that stopped first would take it away from the other),
// each resume the same answered sessions, and race for its channels. The
// serve of a state directory holds serve.lock there (a flock, released
// when the process ends, however it ends), and writes in it its pid and,
// once it serves, its address without the token, so a second serve can
// say which one to stop. The file is left in place when serve stops: what
// it says counts only while it is locked.
const serveLockFile = "serve.lock"

// maxServeLockBytes bounds what is read of serve.lock: a pid and an
// address.
const maxServeLockBytes = 4 << 10

// serveLock is serve.lock, held by this process.
type serveLock struct{ f *os.File }

// holdServe takes stateDir for this serve, or fails (a usage error)
// naming the serve that has it.
func holdServe(stateDir string) (*serveLock, error) {
	if err := statefile.MkdirAll(stateDir, 0o700); err != nil {
		return nil, fmt.Errorf("serve: state directory: %w", err)
	}
	path := filepath.Join(stateDir, serveLockFile)
	f, err := statefile.TryLock(path)
	switch {
	case errors.Is(err, statefile.ErrLocked):
		return nil, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("serve: %s is served by another askuser serve (%s); stop it first, or serve another --state-dir",
			stateDir, describeServer(path)))
	case err != nil:
		return nil, fmt.Errorf("serve: hold the state directory: %w", err)
	}
	l := &serveLock{f}
	l.write("")
	return l, nil
}

// serving records the address this serve answers at, its token taken
// off: the lock file is there for anyone to read.
func (l *serveLock) serving(address string) {
	if u, err := url.Parse(address); err == nil {
		u.RawQuery = ""
		l.write(u.String())
	}
}

// write puts this process's pid, and the address when known, in the
// lock file. A failure leaves the lock held and only the message poorer.
func (l *serveLock) write(address string) {
	content := strconv.Itoa(os.Getpid()) + "\n"
	if address != "" {
		content += address + "\n"
	}
	if l.f.Truncate(0) == nil {
		_, _ = l.f.WriteAt([]byte(content), 0)
	}
}

func (l *serveLock) release() { l.f.Close() }

// describeServer says which serve holds the lock at path, from what it
// wrote there: "pid 123, at http://127.0.0.1:8080/".
func describeServer(path string) string {
	b, err := statefile.ReadFile(path, maxServeLockBytes)
	lines := strings.Fields(string(b))
	if err != nil || len(lines) == 0 {
		return "its pid not known yet"
	}
	pid, err := strconv.Atoi(lines[0])
	if err != nil || pid <= 0 {
		return "its pid not known yet"
	}
	if len(lines) < 2 {
		return fmt.Sprintf("pid %d, starting", pid)
	}
	// Only a scheme and a host are said: nothing else of what is in the
	// file (a token, text planted there) reaches the terminal.
	u, err := url.Parse(lines[1])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("pid %d", pid)
	}
	return fmt.Sprintf("pid %d, at %s://%s/", pid, u.Scheme, u.Host)
}
