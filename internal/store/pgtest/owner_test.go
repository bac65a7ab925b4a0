//go:build unix

package pgtest

import (
	"os"
	"syscall"
)

func ownerOf(fi os.FileInfo) uint32 { return fi.Sys().(*syscall.Stat_t).Uid }
