package inbox

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"

	"github.com/askuser/askuser/ask"
)

// checkListen checks a --listen address before anything listens: HOST:PORT
// with a port from 0 to 65535 (or a service's name, such as http). It
// returns the host. Its errors wrap ErrListenAddress: the person gave an
// address that is none, a usage error.
func checkListen(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		why := err.Error()
		var ae *net.AddrError
		if errors.As(err, &ae) {
			why = ae.Err // without the address, which is quoted in part
		}
		return "", badListen(addr, why+"; give HOST:PORT, e.g. 127.0.0.1:8080, or 127.0.0.1:0 for a free port")
	}
	if n, err := strconv.Atoi(port); err == nil {
		if n < 0 || n > 65535 {
			return "", badListen(addr, port+" is not a port: give 0 to 65535 (0: a free one)")
		}
	} else if _, err := net.LookupPort("tcp", port); err != nil {
		return "", badListen(addr, ask.Excerpt(port)+" is not a port: give 0 to 65535 (0: a free one)")
	}
	return host, nil
}

// listen listens on addr. An address that does not name this machine (a
// host that does not resolve, an address of another machine) is
// ErrListenAddress; a port taken, or not allowed, is an error of the
// moment, said with what to do.
func listen(addr, host string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	var dns *net.DNSError
	var bad *net.AddrError
	switch {
	case err == nil:
		return ln, nil
	case errors.As(err, &dns):
		return nil, badListen(addr, ask.Excerpt(host)+" does not resolve to an address")
	case errors.As(err, &bad):
		return nil, badListen(addr, bad.Err)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return nil, badListen(addr, ask.Display(host)+" is not an address of this machine; give one of its own, or 0.0.0.0 for all of them")
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("listen on %s: the port is taken; give another with --listen, or port 0 for a free one", ask.Excerpt(addr))
	}
	return nil, fmt.Errorf("listen on %s: %w", ask.Excerpt(addr), err)
}

// badListen is an error about the --listen address addr.
func badListen(addr, why string) error {
	return fmt.Errorf("%w %s: %s", ErrListenAddress, ask.Excerpt(addr), why)
}
