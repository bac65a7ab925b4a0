//go:build unix

package prompt

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize reports the terminal's resizes (SIGWINCH) as they happen;
// the prompt also looks at the size on every tick, for a terminal that is
// not the process's own and so sends it no signal.
func notifyResize() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	return ch, func() { signal.Stop(ch) }
}
