// Package whatsapp is askuser's WhatsApp channel, on Meta's Cloud API: a
// small typed client on net/http (Meta publishes no Go SDK), and the
// webhook askuser serve mounts at /channels/whatsapp to receive replies.
//
// A set is asked one question at a time, each a reply to the set's first
// message: as reply buttons (a single select of at most three options
// whose message fits 1,024 characters), as a list (a single select of up
// to ten), or as numbered text (a multi-select, or anything larger). A
// tap maps back by its id (a channel.Token: set, revision, question,
// option); a typed reply is read as option numbers ("3", "1,3"), any
// other text as Other. The answers so far are saved through the Host
// (state.go), so askuser serve can be restarted between two questions.
// Once the last question is answered the whole set goes to the Host.
// WhatsApp cannot edit a message, so Update replies with the outcome.
//
// Invariants:
//   - Only the number on the allow-list (E.164 digits, compared whole)
//     answers; a stranger's message gets nothing at all, not even a
//     reply, since a reply would tell them the number is a bot, and is
//     recorded nowhere.
//   - The webhook refuses a delivery whose X-Hub-Signature-256 is
//     missing or not a signature's shape (401), or whose body is over
//     1 MiB (413), before it reads the body; it reads at most 8 bodies at
//     once (a ninth waits 2 s, then gets 503) and each within 5 s (408),
//     then checks the signature (401); every signed body within the limit gets
//     200, whatever it holds, unless it holds a message that could not
//     be taken just now (no Host yet, a store that failed): then 503, so
//     WhatsApp delivers it again.
//   - A typed reply answers the set whose message it quotes. One that
//     quotes nothing is never guessed onto a set: it answers only when
//     one set waits, that set is no approval, and its question was sent
//     before the reply was written (the message's own timestamp);
//     otherwise the person is told which sets wait and to reply to the
//     one they answer (choose.go).
//   - A message is taken once, by its id, in every serve of the store
//     (the Host's durable record, channel.Taker) for channel.KeepTaken,
//     past the 7 days Meta goes on delivering it; one stamped longer ago
//     is not taken at all.
//   - The webhook answers without waiting on WhatsApp: what it sends
//     back (the next question, a refusal) goes out from Serve's loop.
//   - Outside WhatsApp's 24-hour window only templates may be sent.
//     Whether WhatsApp refuses a question at once (code 131047) or says
//     so later in a status, serve's log says so and what to do (the
//     Host's notice), the set stays answerable everywhere else, and the
//     question is sent as soon as the person writes. Check returns the
//     refusal itself (channel.ErrRefused).
//   - Secrets (the token, the app secret, the phone number id, the
//     verify token) appear in no error, notice or saved state.
package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Name is the channel's frontend name.
const Name = "whatsapp"

// The configuration's secrets.
const (
	envToken       = "WHATSAPP_TOKEN"
	envAppSecret   = "WHATSAPP_APP_SECRET"
	envPhoneID     = "WHATSAPP_PHONE_NUMBER_ID"
	envVerifyToken = "WHATSAPP_VERIFY_TOKEN"
)

func init() {
	channel.Register(channel.Spec{Name: Name, Normalise: Normalise,
		New: func(cfg channel.Config) (channel.Channel, error) {
			c, err := New(cfg)
			if err != nil {
				return nil, err
			}
			return c, nil
		}})
}

// Options are the channel's timings; the zero value is askuser's.
type Options struct {
	// CallTimeout bounds one Cloud API call (20 s): a call gone silent
	// is abandoned, and retried like any failed one.
	CallTimeout time.Duration
	// Sweep is how often the sets are looked at for a question to send
	// (30 s); an answer that makes one due looks at once.
	Sweep time.Duration
	// HostWait is how long Send waits for Serve's Host (5 s).
	HostWait time.Duration
	Now      func() time.Time
	// Webhook bounds what the webhook gives a delivery before its
	// signature is checked; zero fields are askuser's (webhook.go).
	Webhook channel.WebhookLimits
}

// Channel is WhatsApp, configured for one recipient.
type Channel struct {
	cfg    channel.Config
	to     string // the recipient, E.164 digits
	api    *client
	opts   Options
	secret string // the app secret: webhook signatures
	verify string // the verify token: the webhook's subscription

	webhook   atomic.Bool // Handler was asked for: this process receives replies
	hostMu    sync.Mutex
	host      channel.Host
	hostReady chan struct{} // closed while a Host is set

	locks  keyLocks
	taken  *channel.Recent // message ids taken (and the Host's record of them)
	bodies *channel.WebhookBodies
	kick   chan struct{}
	notes  chan note // replies to send from Serve's loop

	heardMu sync.Mutex
	heard   time.Time // when the recipient last wrote: the 24-hour window
}

var (
	_ channel.Channel = (*Channel)(nil)
	_ channel.Webhook = (*Channel)(nil)
)

// New returns the channel for cfg.
func New(cfg channel.Config) (*Channel, error) { return NewWith(cfg, Options{}) }

// NewWith is New with timings of its own (tests).
func NewWith(cfg channel.Config, opts Options) (*Channel, error) {
	to, err := Normalise(cfg.Dest)
	if err != nil {
		return nil, fmt.Errorf("ASKUSER_WHATSAPP_TO: %w", err)
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 20 * time.Second
	}
	if opts.Sweep <= 0 {
		opts.Sweep = 30 * time.Second
	}
	if opts.HostWait <= 0 {
		opts.HostWait = 5 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Webhook = webhookLimits(opts.Webhook)
	c := &Channel{cfg: cfg, to: to, opts: opts, secret: cfg.Secret(envAppSecret), verify: cfg.Secret(envVerifyToken),
		hostReady: make(chan struct{}), taken: channel.NewRecent(1024), kick: make(chan struct{}, 1), notes: make(chan note, 64),
		bodies: channel.NewWebhookBodies(opts.Webhook)}
	c.api = &client{api: strings.TrimRight(cfg.API, "/"), phoneID: cfg.Secret(envPhoneID), token: cfg.Secret(envToken),
		secrets: cfg.Secrets(), http: &http.Client{Timeout: opts.CallTimeout}, now: opts.Now}
	return c, nil
}

// Name implements channel.Channel.
func (c *Channel) Name() string { return Name }

// Handler implements channel.Webhook: WhatsApp's webhook, which askuser
// serve mounts at /channels/whatsapp. A process that never asks for it
// receives no replies, so its Serve refuses to hold the channel.
func (c *Channel) Handler() http.Handler {
	c.webhook.Store(true)
	return http.HandlerFunc(c.serveHTTP)
}

// errNoWebhook: Serve in a process that does not receive the webhook.
var errNoWebhook = errors.New("WhatsApp delivers replies to askuser serve's webhook (/channels/whatsapp), and this process is not askuser serve: " +
	"start askuser serve with WhatsApp configured, and it sends the question and takes the reply")

// Serve implements channel.Channel: replies arrive on the webhook, which
// hands them to h from now on; Serve's loop sends what they make due
// (the next question, a refusal), and the questions WhatsApp refused
// once the person writes again.
func (c *Channel) Serve(ctx context.Context, h channel.Host) error {
	if !c.webhook.Load() {
		return errNoWebhook
	}
	c.setHost(h)
	defer c.setHost(nil)
	c.loop(ctx, h)
	return nil
}

func (c *Channel) setHost(h channel.Host) {
	c.hostMu.Lock()
	defer c.hostMu.Unlock()
	switch {
	case h != nil && c.host == nil:
		close(c.hostReady)
	case h == nil && c.host != nil:
		c.hostReady = make(chan struct{})
	}
	c.host = h
}

func (c *Channel) currentHost() channel.Host {
	c.hostMu.Lock()
	defer c.hostMu.Unlock()
	return c.host
}

// waitHost returns Serve's Host, waiting a little for it: the relay may
// send a set just before it calls Serve.
func (c *Channel) waitHost(ctx context.Context) channel.Host {
	c.hostMu.Lock()
	ready := c.hostReady
	c.hostMu.Unlock()
	t := time.NewTimer(c.opts.HostWait)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	}
	return c.currentHost()
}

// Send implements channel.Channel: it asks the set's first question, as
// a reply to the message the set follows up, if any. A set already sent
// in this revision (the relay retrying after a crash, or sent again once
// the person wrote) is not sent twice.
func (c *Channel) Send(ctx context.Context, s channel.Set) (channel.Ref, error) {
	if len(s.Request.Questions) == 0 {
		return nil, errors.New("the question set has no questions")
	}
	h := c.waitHost(ctx)
	if h == nil {
		return nil, errors.New("WhatsApp is not served by this process yet")
	}
	defer c.locks.lock(s.Key)()
	_, raw, err := h.Lookup(ctx, s.Key)
	if err != nil {
		return nil, err
	}
	st := loadState(raw)
	switch {
	case st.Rev == s.Rev && len(st.Msgs) > 0:
		return refOf(s.Key, st.Msgs[0]), nil
	case st.Rev == s.Rev && st.Refused != "":
		return refOf(s.Key, ""), nil // waits for the window to open
	}
	st = state{Rev: s.Rev}
	// Finished and recorded even when the relay stops meanwhile: a
	// question sent and not recorded would be sent again.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.CallTimeout)
	defer cancel()
	began := c.opts.Now()
	id, err := c.sendMessage(ctx, question(c.to, s, 0, nil, refID(s.Thread)), false)
	var r *refusal
	if errors.As(err, &r) && r.window {
		// As when WhatsApp says so later, in a status: said in serve's
		// log, and sent when the person writes. The set counts as
		// sent, so its outcome and what follows find it then.
		st.Refused = r.text
		if err := c.save(ctx, h, s.Key, st); err != nil {
			return nil, err
		}
		notice(h, s.Key, r.text)
		return refOf(s.Key, ""), nil
	}
	if err != nil {
		return nil, err
	}
	st.Msgs, st.SentAt = []string{id}, began
	// Not saved, the set still takes taps; only typed replies would not
	// find it. Sending it again would ask twice.
	_ = c.save(ctx, h, s.Key, st)
	return refOf(s.Key, id), nil
}

// replyTo is the message an outcome or a follow-up of the set r names
// replies to: the first question's, as delivered last (it is sent again
// when WhatsApp refused it).
func (c *Channel) replyTo(ctx context.Context, r channel.Ref) string {
	x := readRef(r)
	if h := c.currentHost(); h != nil && x.Key != "" {
		if _, raw, err := h.Lookup(ctx, x.Key); err == nil {
			if st := loadState(raw); len(st.Msgs) > 0 {
				return st.Msgs[0]
			}
		}
	}
	return x.ID
}

// Update implements channel.Channel: WhatsApp cannot edit a message, so
// the outcome ("Answered: SQLite — by +16505551234, 14:02") is a reply to
// the set's message; its buttons are refused from then on by the Host.
func (c *Channel) Update(ctx context.Context, r channel.Ref, o channel.Outcome) error {
	return c.Reply(ctx, r, o.Text)
}

// Reply implements channel.Channel: text as a reply to the set's message.
func (c *Channel) Reply(ctx context.Context, r channel.Ref, text string) error {
	_, err := c.sendMessage(ctx, textMessage(c.to, c.replyTo(ctx, r), channel.Cut(ask.DisplayBlock(text), maxBody)), false)
	return err
}

// sendMessage sends m and returns its id; its error is explained (the
// 24-hour window, a bad token) and redacted. Unless wait, a rate limit
// still in force fails at once, and the caller tries again later.
func (c *Channel) sendMessage(ctx context.Context, m message, wait bool) (string, error) {
	var out sent
	if err := c.api.call(ctx, "/"+c.api.phoneID+"/messages", m, &out, wait); err != nil {
		return "", c.explain(err)
	}
	if len(out.Messages) == 0 || out.Messages[0].ID == "" {
		return "", errors.New("WhatsApp took the message but gave no message id")
	}
	return out.Messages[0].ID, nil
}
