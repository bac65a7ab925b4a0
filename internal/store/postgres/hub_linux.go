package postgres

import (
	"errors"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// The shared watch's socket is in Linux's abstract namespace: no file to
// leave behind, and the name is free the moment its process ends.

func listenHub(name string) (net.Listener, error) { return net.Listen("unix", "@"+name) }

// dialHub connects to the shared watch, if one of this user listens.
func dialHub(name string) (net.Conn, error) {
	c, err := net.DialTimeout("unix", "@"+name, time.Second)
	if err != nil {
		return nil, err
	}
	if _, ok := peerOfSameUser(c); !ok {
		c.Close()
		return nil, errors.New("the shared watch is another user's")
	}
	return c, nil
}

// peerOfSameUser returns the process at the other end of c, and whether
// it runs as this process's user.
func peerOfSameUser(c net.Conn) (pid int64, ok bool) {
	uc, isUnix := c.(*net.UnixConn)
	if !isUnix {
		return 0, false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, false
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || credErr != nil {
		return 0, false
	}
	return int64(cred.Pid), int(cred.Uid) == os.Getuid()
}
