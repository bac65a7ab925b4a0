package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
)

// sessionCloseWait bounds how long closing waits for the SDK's session
// once the server has been told to stop.
const sessionCloseWait = 5 * time.Second

// remote is one started server: its connection, its process (stdio) and
// its tools.
type remote struct {
	cfg      ServerConfig
	opts     *Options
	log      *serverLog
	proc     *process // nil for http
	raw      *rawSchemas
	session  *mcp.ClientSession
	tools    []*remoteTool
	warnings []string

	// life ends at close: questions a server is waiting on are withdrawn.
	life    context.Context
	endLife context.CancelFunc
	// slot holds the one call that may run at a time.
	slot chan struct{}

	mu      sync.Mutex
	current *callState
	gone    error         // why the server can no longer be used
	goneCh  chan struct{} // closed when gone is set
	closing bool
}

// startServer starts one server and lists its tools, within the start
// timeout.
func startServer(ctx context.Context, sc ServerConfig, opts *Options) (*remote, *ServerError) {
	r := &remote{cfg: sc, opts: opts, raw: newRawSchemas(), slot: make(chan struct{}, 1), goneCh: make(chan struct{})}
	log, err := openLog(opts.LogDir, sc.Name, opts.MaxLogBytes)
	if err != nil {
		return nil, &ServerError{Server: sc.Name, Err: fmt.Errorf("%w: %v", ErrStart, err)}
	}
	r.log = log
	r.life, r.endLife = context.WithCancel(context.Background())
	sctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()

	var transport mcp.Transport
	switch sc.Transport {
	case TransportHTTP:
		log.Note("connecting to %s", ask.Display(sc.URL))
		transport = httpTransport(sc, opts.MaxMessageBytes, r.raw)
	default:
		p, err := launch(sc, log)
		if err != nil {
			return nil, r.failed(err)
		}
		r.proc = p
		transport = &mcp.IOTransport{Reader: reader{p: p, tap: r.raw.tap()}, Writer: p.stdin, MaxLineLength: opts.MaxMessageBytes}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: opts.ClientName, Version: opts.ClientVersion}, &mcp.ClientOptions{
		Logger: slog.New(slog.NewTextHandler(noteWriter{log}, nil)),
		// No roots: askuser has none to offer, and a server that asks for
		// them and gets no answer may linger after stdin closes.
		Capabilities:       &mcp.ClientCapabilities{},
		ElicitationHandler: r.elicit,
	})
	cs, err := client.Connect(sctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		return nil, r.failed(r.startErr(ctx, sctx, "answer initialize", err))
	}
	r.session = cs
	if err := r.listTools(sctx); err != nil {
		return nil, r.failed(r.startErr(ctx, sctx, "list its tools", err))
	}
	log.Note("started with %d tools", len(r.tools))
	go r.watch()
	return r, nil
}

// startErr words why a start failed.
func (r *remote) startErr(ctx, sctx context.Context, stage string, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%w: the start was cancelled", ErrStart)
	case errors.Is(sctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w: it did not %s within %s", ErrStartTimeout, stage, r.opts.StartTimeout)
	}
	if r.proc != nil {
		select {
		case <-r.proc.exited:
			return fmt.Errorf("%w: it exited before it could %s (%s)", ErrStart, stage, exitText(r.proc.exitErr))
		case <-time.After(drainWait):
		}
	}
	return fmt.Errorf("%w: it did not %s: %s", ErrStart, stage, errText(err))
}

// failed stops what was started and returns the error to report, with
// the tail of stderr.
func (r *remote) failed(err error) *ServerError {
	r.log.Note("start failed: %v", err)
	r.stop()
	e := &ServerError{Server: r.cfg.Name, Err: err, Tail: r.log.Tail(), Log: r.log.path}
	_ = r.log.Close()
	return e
}

// listTools asks for the server's tools and adapts them.
func (r *remote) listTools(ctx context.Context) error {
	seen := map[string]bool{}
	n := 0
	for t, err := range r.session.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		if n++; n > maxTools {
			r.warn("it lists more than %d tools; the rest are left out", maxTools)
			break
		}
		tool, why := newRemoteTool(r, t)
		switch {
		case why != "":
			r.warn("tool %q is left out: %s", ask.Display(t.Name), why)
		case seen[tool.spec.Name]:
			r.warn("tool %q is left out: another of its tools is also offered as %s", ask.Display(t.Name), tool.spec.Name)
		default:
			seen[tool.spec.Name] = true
			r.tools = append(r.tools, tool)
		}
	}
	return nil
}

func (r *remote) warn(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	r.warnings = append(r.warnings, w)
	r.log.Note("%s", w)
}

// watch notices the server stopping before close: its tools then answer
// that it is gone, and Options.OnExit hears why.
func (r *remote) watch() {
	_ = r.session.Wait()
	what := "its connection closed"
	if r.proc != nil {
		select {
		case <-r.proc.exited:
			what = "it exited (" + exitText(r.proc.exitErr) + ")"
		case <-time.After(2 * drainWait):
			what = "it closed its output"
		}
	}
	if !r.markGone(fmt.Errorf("%w: %s", ErrExited, what)) {
		return
	}
	r.log.Note("stopped: %s", what)
	if r.opts.OnExit != nil {
		if r.proc != nil {
			select {
			case <-r.proc.copied:
			case <-time.After(drainWait):
			}
		}
		go r.opts.OnExit(&ServerError{Server: r.cfg.Name, Err: r.goneErr(), Tail: r.log.Tail(), Log: r.log.path})
	}
}

// markGone records why the server can no longer be used; it reports
// false when that was known already, or the server is being closed.
func (r *remote) markGone(err error) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gone != nil || r.closing {
		return false
	}
	r.gone = err
	close(r.goneCh)
	return true
}

func (r *remote) goneErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gone
}

// close shuts the server down and waits until it is gone.
func (r *remote) close() error {
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	r.log.Note("closing")
	r.stop()
	return r.log.Close()
}

// stop ends the session and the process together: the SDK's close waits
// for calls in flight, which end when the process does.
func (r *remote) stop() {
	r.endLife()
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		if r.session != nil {
			_ = r.session.Close()
		}
	}()
	if r.proc != nil {
		r.proc.stop(r.opts.CloseGrace)
	}
	select {
	case <-closed:
	case <-time.After(sessionCloseWait):
		r.log.Note("the session did not close within %s; left behind", sessionCloseWait)
	}
}

// errText words an SDK error, bounded: a JSON-RPC error by its message.
func errText(err error) string {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return cutText(ask.Display(we.Message), 300)
	}
	return cutText(ask.Display(err.Error()), 300)
}
