package slack

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/askuser/askuser/internal/channel"
)

// Texts a person is told when a tap is not taken.
const (
	notWaiting = "This question is no longer waiting."
	tryAgain   = "Your answer could not be taken just now; press Submit again."
)

// sampleKey is the key of askuser channels test's sample question: a tap
// on it is answered, and recorded nowhere.
var sampleKey = channel.Key("", "askuser channels test")

// drainLimit is how long the taps in hand may take to be delivered and
// acknowledged once Serve's ctx ends: the run a tap answers may be
// stopping because of it, and the answer must still be taken whole.
const drainLimit = 5 * time.Second

// flushGrace is how long the socket is kept after the last ack was
// handed to slack-go, at the end: slack-go queues an ack for its writer
// and says nothing once it is written, and closing the socket first
// would leave the person with Slack's "try again" for a taken answer.
const flushGrace = 250 * time.Millisecond

// Serve implements channel.Channel: it holds a Socket Mode connection
// (slack-go reconnects it when it drops or Slack asks it to) and hands
// every Submit to h. It returns nil when ctx ends, once the taps in hand
// are answered, and an error only when Slack refuses the app-level token
// for good.
func (c *Channel) Serve(ctx context.Context, h channel.Host) error {
	sctx, stopStrangers := context.WithCancel(ctx)
	defer stopStrangers()
	go c.strangers.Run(sctx)
	wait := time.Second
	for {
		err := c.serveOnce(ctx, h)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, channel.ErrRefused):
			return explain(err, c.dest)
		}
		if channel.Sleep(ctx, wait) != nil {
			return nil
		}
		wait = min(2*wait, time.Minute)
	}
}

// serveOnce runs one Socket Mode client until it fails for good or ctx
// ends. The client outlives ctx by as long as the taps in hand take to be
// acknowledged (drain), so no tap taken goes unanswered.
func (c *Channel) serveOnce(ctx context.Context, h channel.Host) error {
	var taps sync.WaitGroup
	defer taps.Wait()
	var acked atomic.Int64 // when the last ack was queued, in Unix nanoseconds
	smCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	sm := socketmode.New(c.api.client, socketmode.OptionDialer(c.dialer()),
		socketmode.OptionPingInterval(c.opt.PingTimeout+c.opt.Grace), socketmode.OptionLog(log.New(io.Discard, "", 0)))
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(smCtx) }()
	var fatal error
	for {
		select {
		case <-ctx.Done():
			drain(sm, &taps, &acked, done)
			return nil
		case err := <-done:
			if fatal != nil {
				return fatal
			}
			if err != nil && smCtx.Err() == nil {
				return c.api.fail(mOpen, err)
			}
			return err
		case evt := <-sm.Events:
			if err := c.event(ctx, smCtx, sm, h, evt, &taps, &acked); err != nil && fatal == nil {
				fatal = err
				stop()
			}
		}
	}
}

// drain waits, for at most drainLimit, until the taps in hand are
// answered and their acks had flushGrace to be written, reading the
// client's events meanwhile; a tap that arrives now is not taken, and,
// unacknowledged, is refused by Slack with "try again".
func drain(sm *socketmode.Client, taps *sync.WaitGroup, acked *atomic.Int64, done <-chan error) {
	idle := make(chan struct{})
	go func() {
		taps.Wait()
		time.Sleep(time.Until(time.Unix(0, acked.Load()).Add(flushGrace)))
		close(idle)
	}()
	limit := time.NewTimer(drainLimit)
	defer limit.Stop()
	for {
		select {
		case <-idle:
			return
		case <-limit.C:
			return
		case <-done:
			return
		case <-sm.Events:
		}
	}
}

// event handles one Socket Mode event of the client sm, which lives as
// long as smCtx; ctx is Serve's. It returns an error that ends the client
// (a token Slack refuses for good).
func (c *Channel) event(ctx, smCtx context.Context, sm *socketmode.Client, h channel.Host, evt socketmode.Event, taps *sync.WaitGroup, acked *atomic.Int64) error {
	ack := func(id string) {
		if sm.AckCtx(smCtx, id, nil) == nil {
			acked.Store(time.Now().UnixNano())
		}
	}
	switch evt.Type {
	case socketmode.EventTypeInteractive:
		cb, _ := evt.Data.(slack.InteractionCallback)
		id := ""
		if evt.Request != nil {
			id = evt.Request.EnvelopeID
		}
		taps.Add(1)
		go func() {
			defer taps.Done()
			c.take(ctx, func() { ack(id) }, h, cb)
		}()
	case socketmode.EventTypeEventsAPI, socketmode.EventTypeSlashCommand:
		// Not askuser's to act on: acknowledged, so Slack does not retry.
		if evt.Request != nil {
			ack(evt.Request.EnvelopeID)
		}
	case socketmode.EventTypeErrorBadMessage:
		// An envelope slack-go could not read is still acknowledged.
		if bad, ok := evt.Data.(*socketmode.ErrorBadMessage); ok {
			var env struct {
				ID string `json:"envelope_id"`
			}
			if json.Unmarshal(bad.Message, &env) == nil && env.ID != "" {
				ack(env.ID)
			}
		}
	case socketmode.EventTypeConnectionError:
		if ce, ok := evt.Data.(*slack.ConnectionErrorEvent); ok {
			if err := c.api.fail(mOpen, ce.ErrorObj); errors.Is(err, channel.ErrRefused) {
				return err
			}
		}
	case socketmode.EventTypeInvalidAuth:
		return &APIError{Method: mOpen, Code: "invalid_auth"}
	}
	return nil
}

// dialer opens Socket Mode's websocket on a connection that gives up on
// a read that waits longer than Slack's ping interval plus the grace: a
// socket gone silent is abandoned, and slack-go opens another.
func (c *Channel) dialer() *websocket.Dialer {
	idle := c.opt.PingTimeout + c.opt.Grace
	nd := &net.Dialer{Timeout: c.opt.CallTimeout + c.opt.Grace}
	return &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: c.opt.CallTimeout + c.opt.Grace,
		WriteBufferSize:  32 << 10, // one frame per response, as slack-go's own dialer
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &idleConn{Conn: conn, idle: idle}, nil
		},
	}
}

// idleConn fails a read that waits longer than idle.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.idle)); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}
