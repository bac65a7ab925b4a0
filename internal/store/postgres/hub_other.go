//go:build !linux

package postgres

import (
	"errors"
	"net"
)

// Elsewhere than Linux no watch is shared: each process looks for its own
// answers (watch.go).

var errNoHub = errors.New("no shared watch on this system")

func listenHub(string) (net.Listener, error) { return nil, errNoHub }

func dialHub(string) (net.Conn, error) { return nil, errNoHub }

func peerOfSameUser(net.Conn) (int64, bool) { return 0, false }
