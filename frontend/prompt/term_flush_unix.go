//go:build unix

package prompt

import "golang.org/x/sys/unix"

// discardTypeahead drops what was typed at the terminal before the prompt
// was shown (a stray Enter while the agent worked, keys meant for the
// shell), so that only keys pressed at the prompt can answer it. It reads
// what is there without waiting; in cooked mode only whole lines are
// there to read, and a partial one stays for the prompt's own line.
func discardTypeahead(fd int) {
	buf := make([]byte, 256)
	for range 64 { // bounded: a terminal flooded with input does not hold the prompt
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 || fds[0].Revents&unix.POLLIN == 0 {
			return
		}
		if n, err := unix.Read(fd, buf); err != nil || n == 0 {
			return
		}
	}
}
