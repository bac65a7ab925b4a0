package iostreams

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// HostTerminal returns the terminal of the nearest ancestor process that
// has one on its standard input, output or error, opened for reading and
// writing, for a process its host started without a controlling terminal:
// Claude Code runs every hook in a session of its own with sockets for
// stdio (observed on 2.1.197 and 2.1.330), so askuser hook cannot open
// /dev/tty, while the person sits at the terminal claude -p was started
// from. It reads /proc and so works on Linux only; elsewhere, and when no
// ancestor has a terminal, it returns an error saying so. close releases
// the file.
func (s *IOStreams) HostTerminal() (in, out *os.File, close func(), err error) {
	path, err := ancestorTerminal(os.Getppid())
	if err != nil {
		return nil, nil, func() {}, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, func() {}, fmt.Errorf("open the host's terminal %s: %w", path, err)
	}
	if !isTerminal(f) {
		f.Close()
		return nil, nil, func() {}, fmt.Errorf("the host's %s is not a terminal", path)
	}
	return f, f, func() { f.Close() }, nil
}

// terminalPath matches the device paths of terminals a process can hold:
// pseudo-terminals and virtual consoles, not /dev/tty (which names each
// process's own controlling terminal, and this one has none). Compiled on
// first use, not at every start.
var terminalPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/dev/(pts/[0-9]+|tty[0-9]+)$`) })

// ancestorTerminal walks up from pid, a few generations at most.
func ancestorTerminal(pid int) (string, error) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return "", errors.New("no host terminal: /proc is not available to find one")
	}
	for gen := 0; gen < 8 && pid > 1; gen++ {
		for _, fd := range []string{"0", "2", "1"} {
			if p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd); err == nil && terminalPath().MatchString(p) {
				return p, nil
			}
		}
		next, err := parentOf(pid)
		if err != nil {
			break
		}
		pid = next
	}
	return "", errors.New("no host terminal: no ancestor process has a terminal on its standard input, output or error")
}

// parentOf reads a process's parent from /proc/PID/stat, whose second
// field (the command, in parentheses) may itself hold spaces.
func parentOf(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("malformed stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, errors.New("malformed stat")
	}
	return strconv.Atoi(f[1])
}
