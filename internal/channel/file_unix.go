//go:build unix

package channel

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

const oNoFollow = syscall.O_NOFOLLOW

// ownedByMe refuses a file another user owns: they could change it.
func ownedByMe(fi fs.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("owned by user %d, not by you (%d)", st.Uid, os.Getuid())
	}
	return nil
}
