package channeltest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Name is the test channel's frontend name.
const Name = "testchan"

// Spec is the test channel's configuration, in the shape of issue 25's
// table.
var Spec = channel.Spec{
	Name:    Name,
	Secrets: []channel.Setting{{Env: "TESTCHAN_TOKEN", Usage: "the fake platform's token"}},
	Dest:    channel.Setting{Env: "ASKUSER_TESTCHAN_ROOM", Usage: "the room to ask in"},
	Users:   channel.Setting{Env: "ASKUSER_TESTCHAN_USERS", Usage: "the user ids who may answer, comma-separated"},
	API:     channel.Setting{Env: "ASKUSER_TESTCHAN_API_URL", Usage: "the fake platform's URL"},
	New:     func(c channel.Config) (channel.Channel, error) { return New(c), nil },
}

func init() { channel.Register(Spec) }

// pollWait is how long a long poll waits on the server; the client gives
// up on it 10 s later (a poll gone silent is abandoned and retried).
const pollWait = 5

// Channel is the test channel: a channel.Channel on the fake platform.
type Channel struct {
	cfg  channel.Config
	http *http.Client
}

var _ channel.Channel = (*Channel)(nil)

// New returns the channel for cfg.
func New(cfg channel.Config) *Channel {
	return &Channel{cfg: cfg, http: &http.Client{Timeout: (pollWait + 10) * time.Second}}
}

// Name implements channel.Channel.
func (c *Channel) Name() string { return Name }

type ref struct {
	ID int `json:"id"`
}

// call posts body (GET when nil) to path and decodes the answer into out.
// Its errors are redacted: the server echoes a bad token.
func (c *Channel) call(ctx context.Context, path string, body, out any) error {
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		method, rd = http.MethodPost, bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.cfg.API, "/")+path, rd)
	if err != nil {
		return errors.New(channel.Redact(err.Error(), c.cfg.Secrets()...))
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.Secret("TESTCHAN_TOKEN"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return errors.New(channel.Redact(err.Error(), c.cfg.Secrets()...))
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode == http.StatusTooManyRequests {
		var limit struct {
			Wait int64 `json:"retry_after_ms"`
		}
		_ = json.Unmarshal(data, &limit)
		return &RateLimited{Path: path, Until: time.Now().Add(time.Duration(limit.Wait) * time.Millisecond)}
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", path, resp.Status, channel.Redact(strings.TrimSpace(string(data)), c.cfg.Secrets()...))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// RateLimited is a call the platform asked to make again later.
type RateLimited struct {
	Path  string
	Until time.Time
}

func (e *RateLimited) Error() string {
	return e.Path + ": rate limited until " + e.Until.Format("15:04:05.000")
}

// RetryAt implements channel.RetryLater.
func (e *RateLimited) RetryAt() time.Time { return e.Until }

var _ channel.RetryLater = (*RateLimited)(nil)

// Send implements channel.Channel.
func (c *Channel) Send(ctx context.Context, s channel.Set) (channel.Ref, error) {
	var thread ref
	if len(s.Thread) > 0 {
		_ = json.Unmarshal(s.Thread, &thread)
	}
	var got ref
	err := c.call(ctx, "/send", Message{Room: c.cfg.Dest, Key: s.Key, Rev: s.Rev, Title: s.Title, Text: render(s),
		Questions: s.Request.Questions, Thread: thread.ID}, &got)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(ref{ID: got.ID})
	return channel.Ref(b), nil
}

// render is the message's text: the set as a person reads it.
func render(s channel.Set) string {
	var b strings.Builder
	for i, q := range s.Request.Questions {
		fmt.Fprintf(&b, "%s: %s\n", ask.Display(q.Header), ask.Display(q.Question))
		for j, o := range q.Options {
			fmt.Fprintf(&b, "  %d. %s\n", j+1, ask.Display(o.Label))
		}
		if i == 0 && s.Request.Detail != "" {
			b.WriteString(channel.CutBlock(ask.DisplayBlock(s.Request.Detail), 1000, s.Link) + "\n")
		}
	}
	if s.Link != "" {
		b.WriteString("Inbox: " + s.Link + "\n")
	}
	if s.Resent {
		b.WriteString("(" + channel.ResentNote + ")\n")
	}
	return b.String()
}

func (c *Channel) edit(ctx context.Context, path string, r channel.Ref, state, text string) error {
	var m ref
	if err := json.Unmarshal(r, &m); err != nil {
		return fmt.Errorf("not a testchan message: %w", err)
	}
	return c.call(ctx, path, map[string]any{"id": m.ID, "state": state, "text": text}, nil)
}

// Update implements channel.Channel.
func (c *Channel) Update(ctx context.Context, r channel.Ref, o channel.Outcome) error {
	return c.edit(ctx, "/update", r, o.State, o.Text)
}

// Reply implements channel.Channel.
func (c *Channel) Reply(ctx context.Context, r channel.Ref, text string) error {
	return c.edit(ctx, "/reply", r, "", text)
}

// Check implements channel.Channel.
func (c *Channel) Check(ctx context.Context) error {
	return c.call(ctx, "/check", nil, nil)
}

// Serve implements channel.Channel: it long-polls for taps and hands each
// to h, answering every one with a verdict, a stranger's off the poller
// (channel.Strangers). A tap delivered again gets the verdict the first
// got (the Host's Deliver is idempotent per delivery).
func (c *Channel) Serve(ctx context.Context, h channel.Host) error {
	offset := 0
	strangers := channel.NewStrangers()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go strangers.Run(sctx)
	for ctx.Err() == nil {
		var taps []tap
		if err := c.call(ctx, "/taps?offset="+strconv.Itoa(offset)+"&wait="+strconv.Itoa(pollWait), nil, &taps); err != nil {
			_ = channel.Sleep(ctx, 200*time.Millisecond) // a passing fault: try again shortly
			continue
		}
		for _, t := range taps {
			offset = t.Offset + 1
			if !c.cfg.Allow.Allows(t.User) {
				id := t.ID
				strangers.Tell(func(ctx context.Context) {
					_ = c.call(ctx, "/verdict", map[string]any{"tap": id, "ok": false, "text": channel.NotAllowed}, nil)
				})
				continue
			}
			// A tap taken is answered, though ctx ends meanwhile: the
			// run it answered may be stopping because of it.
			ans, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			v := c.take(ans, h, t)
			_ = c.call(ans, "/verdict", map[string]any{"tap": t.ID, "ok": v.OK, "text": v.Text}, nil)
			cancel()
		}
	}
	return nil
}

// take turns a tap into answers, built from the options the host holds,
// and delivers it.
func (c *Channel) take(ctx context.Context, h channel.Host, t tap) channel.Verdict {
	if !c.cfg.Allow.Allows(t.User) {
		return channel.Verdict{Text: channel.NotAllowed}
	}
	set, _, err := h.Lookup(ctx, t.Key)
	if err != nil {
		return channel.Verdict{Text: "This question is no longer waiting."}
	}
	qs := set.Request.Questions
	if len(t.Picks) != len(qs) {
		return channel.Verdict{Text: fmt.Sprintf("Answer all %d questions.", len(qs))}
	}
	who := channel.Who{Channel: Name, ID: t.User, Name: ask.Display(t.Name)}
	answers := make([]ask.Answer, len(qs))
	for i, q := range qs {
		var labels []string
		for _, o := range t.Picks[i].Options {
			if o < 0 || o >= len(q.Options) {
				return channel.Verdict{Text: "That option is not on this question."}
			}
			labels = append(labels, q.Options[o].Label)
		}
		a, err := ask.Selection(q, labels, t.Picks[i].Other, ask.SourcePerson)
		if err != nil {
			return channel.Verdict{Text: err.Error()}
		}
		a.Via, a.AnsweredAt = who.Via(), time.Now()
		answers[i] = a
	}
	return h.Deliver(ctx, channel.Tap{Key: t.Key, Rev: t.Rev, Answers: answers, Who: who, Delivery: t.ID})
}
