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

// Serve implements channel.Channel: it holds a Socket Mode connection
// (slack-go reconnects it when it drops or Slack asks it to) and hands
// every Submit to h. It returns nil when ctx ends, and an error only when
// Slack refuses the app-level token for good.
func (c *Channel) Serve(ctx context.Context, h channel.Host) error {
	var taps sync.WaitGroup
	defer taps.Wait()
	wait := time.Second
	for {
		err := c.serveOnce(ctx, h, &taps)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, channel.ErrRefused):
			return explain(err, c.dest)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}

// serveOnce runs one Socket Mode client until it fails for good or ctx
// ends.
func (c *Channel) serveOnce(ctx context.Context, h channel.Host, taps *sync.WaitGroup) error {
	serve := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sm := socketmode.New(c.api.client, socketmode.OptionDialer(c.dialer()),
		socketmode.OptionPingInterval(c.opt.PingTimeout+c.opt.Grace), socketmode.OptionLog(log.New(io.Discard, "", 0)))
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(ctx) }()
	var fatal error
	for {
		select {
		case err := <-done:
			if fatal != nil {
				return fatal
			}
			if err != nil && ctx.Err() == nil {
				return c.api.fail(mOpen, err)
			}
			return err
		case evt := <-sm.Events:
			if err := c.event(serve, ctx, sm, h, evt, taps); err != nil && fatal == nil {
				fatal = err
				cancel()
			}
		}
	}
}

// event handles one Socket Mode event of the client sm, which lives as
// long as smCtx; a tap is taken within ctx, Serve's. It returns an error
// that ends the client (a token Slack refuses for good).
func (c *Channel) event(ctx, smCtx context.Context, sm *socketmode.Client, h channel.Host, evt socketmode.Event, taps *sync.WaitGroup) error {
	ack := func(id string) { _ = sm.AckCtx(smCtx, id, nil) }
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

// take answers one tap. The envelope is acknowledged as soon as the tap
// is taken or refused, and after Options.AckWithin at the latest; what
// the person is to be told follows, privately.
func (c *Channel) take(ctx context.Context, acknowledge func(), h channel.Host, cb slack.InteractionCallback) {
	ack := sync.OnceFunc(acknowledge)
	late := time.AfterFunc(c.opt.AckWithin, ack)
	defer late.Stop()
	defer ack()
	tok, action, ok := submitOf(cb)
	if !ok {
		return
	}
	id := delivery(cb, action)
	if !c.seen.add(id) {
		return // the same click again: it is being, or was, answered
	}
	v, set := c.verdict(ctx, h, tok, cb, id)
	ack()
	channelID, thread := cb.Container.ChannelID, cb.Container.ThreadTs
	if channelID == "" {
		channelID = cb.Channel.ID
	}
	if thread == "" {
		thread = cb.Message.ThreadTimestamp
	}
	tell, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !v.OK {
		if v.Text != "" {
			_ = c.ephemeral(tell, channelID, thread, cb.User.ID, v.Text)
		}
		return
	}
	// The message tapped shows the outcome at once. The Host updates the
	// message it knows of too, later; the two differ when a process was
	// killed after posting a set and before keeping its reference, and
	// posted the set again: then both show it.
	tapped := ref{Channel: channelID, TS: cb.Container.MessageTs, Thread: thread, Head: head(set), Gist: gist(set)}
	if b, err := json.Marshal(tapped); err == nil && tapped.TS != "" {
		_ = c.Update(tell, channel.Ref(b), channel.Outcome{State: channel.Answered, Text: v.Text})
	}
}

// verdict is what becomes of a tap, and the set it answered. Nothing is
// delivered for a stranger, a stale rendering or a form that does not
// answer the set: the verdict says what to tell the person.
func (c *Channel) verdict(ctx context.Context, h channel.Host, tok channel.Token, cb slack.InteractionCallback, id string) (channel.Verdict, channel.Set) {
	no := func(text string) (channel.Verdict, channel.Set) { return channel.Verdict{Text: text}, channel.Set{} }
	by := who(cb.User)
	if !c.cfg.Allow.Allows(by.ID) {
		return no(channel.NotAllowed)
	}
	if tok.Key == sampleKey {
		return no(sample)
	}
	set, _, err := h.Lookup(ctx, tok.Key)
	switch {
	case errors.Is(err, channel.ErrUnknownSet):
		return no(notWaiting)
	case err != nil:
		return no(tryAgain)
	case tok.Rev != set.Rev:
		return no(stale)
	}
	answers, err := answersOf(set, tok, cb.BlockActionState, by, c.opt.Now())
	if err != nil {
		return no(err.Error())
	}
	v := h.Deliver(ctx, channel.Tap{Key: tok.Key, Rev: tok.Rev, Answers: answers, Who: by, Delivery: id})
	if v.OK && v.Text == "" {
		v.Text = "Answered by " + by.Via() + "."
	}
	return v, set
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

// recent remembers the last n delivery ids.
type recent struct {
	mu    sync.Mutex
	n     int
	order []string
	ids   map[string]bool
}

func newRecent(n int) *recent { return &recent{n: n, ids: map[string]bool{}} }

// add reports whether id is new, and remembers it.
func (r *recent) add(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids[id] {
		return false
	}
	r.ids[id] = true
	r.order = append(r.order, id)
	if len(r.order) > r.n {
		delete(r.ids, r.order[0])
		r.order = r.order[1:]
	}
	return true
}
