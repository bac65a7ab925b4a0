package inbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/inbox/page"
)

// ErrListenAddress marks a --listen value that is not an address.
var ErrListenAddress = errors.New("bad listen address")

// maxStreams bounds the event streams open at once: each holds a
// connection and a goroutine.
const maxStreams = 32

// Options configure a Server.
type Options struct {
	// Listen is the address to serve on; "" is 127.0.0.1 and a free port.
	Listen string
	// Warn receives the warning a non-loopback address gets.
	Warn io.Writer
	// Open are handlers served without the page's token and Host checks,
	// by path prefix: a chat channel's webhook (/channels/whatsapp), which
	// a platform calls and guards by its own checks (a signature).
	Open map[string]http.Handler
	// Token is the page's token, kept by the caller across restarts
	// (ValidToken); "" makes a new one for this server. A kept token's
	// cookie lasts (keptCookieAge), so a bookmark outlives a restart.
	Token string
}

// Server serves one kind of page (a Broker's cards, or the inbox) behind
// the guard. Close stops it; pages still open are told to stop waiting.
type Server struct {
	guard   *guard
	hub     *hub
	mux     *http.ServeMux
	http    *http.Server
	ln      *drainListener
	conns   *connTracker
	url     string
	streams chan struct{}
}

// newServer listens on opts.Listen and routes the assets and the event
// stream; the caller adds its pages and then calls start.
func newServer(opts Options, h *hub) (*Server, error) {
	addr := opts.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if opts.Token != "" && !ValidToken(opts.Token) {
		return nil, errors.New("the page's token must be 32 hexadecimal digits")
	}
	host, err := checkListen(addr)
	if err != nil {
		return nil, err
	}
	ln, err := listen(addr, host)
	if err != nil {
		return nil, err
	}
	tcp, ok := ln.(*net.TCPListener)
	if !ok {
		ln.Close()
		return nil, fmt.Errorf("listen on %s: %w", addr, errNotTCP)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	loopback := loopbackHost(host)
	s := &Server{guard: newGuard(port, loopback), hub: h, mux: http.NewServeMux(), ln: newDrainListener(tcp),
		conns: newConnTracker(), streams: make(chan struct{}, maxStreams)}
	if opts.Token != "" {
		s.guard.setToken(opts.Token)
		s.guard.cookieAge = keptCookieAge
	}
	urlHost := host
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if urlHost, err = os.Hostname(); err != nil {
			urlHost = "127.0.0.1"
		}
	}
	s.url = "http://" + net.JoinHostPort(urlHost, port) + "/?token=" + s.guard.token
	if !loopback && opts.Warn != nil {
		fmt.Fprintf(opts.Warn, "askuser: warning: %s is not a loopback address: anyone who can reach port %s of this machine "+
			"and has the token can see and answer the questions, and the page is plain HTTP, so the token crosses the network "+
			"unencrypted; use it only on a network you trust\n", addr, port)
	}
	s.mux.HandleFunc("GET /assets/{name}", page.ServeAsset)
	s.mux.HandleFunc("GET /events", s.events)
	s.http = &http.Server{Handler: openRoutes(opts.Open, s.guard.wrap(s.mux)), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: httpMaxHeaderBytes,
		ConnState: s.conns.state}
	return s, nil
}

// openRoutes sends a request under one of open's prefixes to its handler,
// and every other to guarded.
func openRoutes(open map[string]http.Handler, guarded http.Handler) http.Handler {
	if len(open) == 0 {
		return guarded
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for prefix, h := range open {
			if r.URL.Path == prefix || strings.HasPrefix(r.URL.Path, prefix+"/") {
				h.ServeHTTP(w, r)
				return
			}
		}
		guarded.ServeHTTP(w, r)
	})
}

// start serves in the background.
func (s *Server) start() {
	go func() { _ = s.http.Serve(s.ln) }()
}

// URL is the address to open, token included.
func (s *Server) URL() string { return s.url }

// Handler is the server's handler, guard included (for tests).
func (s *Server) Handler() http.Handler { return s.http.Handler }

// Close tells open pages that askuser stopped, then stops serving,
// answering every request already made (those still in the listener's
// backlog too) until ctx ends; see drain.go.
func (s *Server) Close(ctx context.Context) error {
	s.hub.close()
	s.http.SetKeepAlivesEnabled(false) // each answer closes its connection
	s.ln.drain(ctx)
	_ = s.conns.idle(ctx)
	return s.http.Shutdown(ctx)
}

// writePage writes the named body inside the layout, or only the body when
// the page's script fetches it again (isFetch).
func writePage(w http.ResponseWriter, r *http.Request, frame page.PageData, name string, data any) {
	body, err := page.Render(name, data)
	if err != nil {
		refuse(w, http.StatusInternalServerError, "the page could not be drawn: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if isFetch(r) {
		_, _ = io.WriteString(w, string(body))
		return
	}
	frame.Body = body
	_, _ = io.WriteString(w, page.Layout(frame))
}

// isFetch reports whether the page's script made the request, so it wants
// a piece of the page rather than a whole one or a redirect.
func isFetch(r *http.Request) bool { return r.Header.Get("X-Askuser-Fetch") == "1" }

// events is the event stream: "changed" whenever something on the page
// changed (the page then fetches its body again), "bye" when askuser stops.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	select {
	case s.streams <- struct{}{}:
		defer func() { <-s.streams }()
	default:
		refuse(w, http.StatusServiceUnavailable, "too many pages are open at once; close some")
		return
	}
	rc := http.NewResponseController(w)
	// A stream outlives the server's timeouts.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	ping := time.NewTicker(25 * time.Second) // through proxies that close quiet connections
	defer ping.Stop()
	sent := ^uint64(0)
	for {
		v, next, closed := s.hub.watch()
		if closed {
			_, _ = io.WriteString(w, "event: bye\ndata: stopped\n\n")
			_ = rc.Flush()
			return
		}
		if v != sent {
			sent = v
			if _, err := fmt.Fprintf(w, "event: changed\ndata: %d\n\n", v); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
		select {
		case <-next:
		case <-ping.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}
