package iostreams

import (
	"os"
	"testing"
)

func TestParentOf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	got, err := parentOf(os.Getpid())
	if err != nil || got != os.Getppid() {
		t.Errorf("parentOf(self) = %d, %v; want %d", got, err, os.Getppid())
	}
}

func TestTerminalPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/dev/pts/3": true, "/dev/tty1": true, "/dev/tty": false, "/dev/null": false,
		"socket:[1234]": false, "/dev/pts/ptmx": false, "/tmp/dev/pts/1": false,
	} {
		if terminalPath().MatchString(path) != want {
			t.Errorf("%s: terminal %v, want %v", path, !want, want)
		}
	}
}
