//go:build unix

package serve

import (
	"os"
	"syscall"
)

// noFollow makes an open fail on a symbolic link, so a link planted where
// the token is kept cannot send it, or take it, elsewhere.
const noFollow = syscall.O_NOFOLLOW

// ownedByOther reports whether another user owns the file.
func ownedByOther(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Getuid()
}
