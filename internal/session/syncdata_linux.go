package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncData flushes a journal's data to disk (fdatasync: the size change is
// flushed, the access times are not).
func syncData(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			return err
		}
	}
}
