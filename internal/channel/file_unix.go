//go:build unix

package channel

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openFlags open the channels file never through a link, and without
// waiting: a FIFO there is opened at once, then refused as not a regular
// file, where a blocking open would wait for a writer for ever.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ownedByMe refuses a file another user owns: they could change it.
func ownedByMe(fi fs.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("owned by user %d, not by you (%d)", st.Uid, os.Getuid())
	}
	return nil
}
