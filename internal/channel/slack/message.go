package slack

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/internal/channel"
)

// ref is where a set's message is, and what Update needs to redraw it
// without its inputs (Slack has no "remove the buttons" call, and reading
// the message back would need another scope).
type ref struct {
	Channel string `json:"channel"`
	TS      string `json:"ts"`
	// Thread is the thread the message was posted in; "" at top level.
	Thread string `json:"thread,omitempty"`
	// Head and Gist are the message's first line and its questions, as
	// mrkdwn, kept short.
	Head string `json:"head,omitempty"`
	Gist string `json:"gist,omitempty"`
}

func parseRef(r channel.Ref) (ref, error) {
	var m ref
	if err := json.Unmarshal(r, &m); err != nil || m.Channel == "" || m.TS == "" {
		return ref{}, fmt.Errorf("%s is not a Slack message reference", channel.Cut(string(r), 60))
	}
	return m, nil
}

// root is the thread a reply to m goes in.
func (m ref) root() string {
	if m.Thread != "" {
		return m.Thread
	}
	return m.TS
}

// Send implements channel.Channel: the set as one message, in the thread
// of s.Thread when it follows an earlier question. When that message was
// deleted, the set goes to the channel's top level instead.
func (c *Channel) Send(ctx context.Context, s channel.Set) (channel.Ref, error) {
	blocks, text := render(s)
	if len(blocks) > maxBlocks {
		return nil, fmt.Errorf("the set has %d blocks, over Slack's %d: %w", len(blocks), maxBlocks, channel.ErrRefused)
	}
	opts := []slack.MsgOption{slack.MsgOptionBlocks(blocks...), slack.MsgOptionText(text, false),
		slack.MsgOptionDisableLinkUnfurl(), slack.MsgOptionDisableMediaUnfurl(), metadata(s)}
	thread := ""
	if len(s.Thread) > 0 {
		if t, err := parseRef(s.Thread); err == nil {
			thread = t.root()
		}
	}
	m, err := c.post(ctx, thread, opts)
	if err != nil {
		return nil, explain(err, c.dest)
	}
	m.Head, m.Gist = head(s), gist(s)
	return refJSON(m)
}

func refJSON(m ref) (channel.Ref, error) {
	b, err := json.Marshal(m)
	return channel.Ref(b), err
}

// post posts a message, in thread when set; a thread whose first message
// was deleted is left for the top level.
func (c *Channel) post(ctx context.Context, thread string, opts []slack.MsgOption) (ref, error) {
	var m ref
	call := func(thread string) error {
		return c.api.do(ctx, mPost, func(ctx context.Context) error {
			o := opts
			if thread != "" {
				o = append(o[:len(o):len(o)], slack.MsgOptionTS(thread))
			}
			ch, ts, err := c.api.client.PostMessageContext(ctx, c.dest, o...)
			m = ref{Channel: ch, TS: ts, Thread: thread}
			return err
		})
	}
	err := call(thread)
	if thread != "" && gone(err) {
		err = call("")
	}
	return m, err
}

// gone reports whether err says the message (or thread) no longer exists:
// a person deleted it.
func gone(err error) bool {
	c := code(err)
	return c == "message_not_found" || c == "thread_not_found"
}

// Update implements channel.Channel: the message keeps where it came from
// and its questions, and its inputs and Submit give way to the outcome. A
// message the person deleted has nothing left to update: that is not an
// error to retry.
func (c *Channel) Update(ctx context.Context, r channel.Ref, o channel.Outcome) error {
	m, err := parseRef(r)
	if err != nil {
		return err
	}
	line := outcomeIcon(o.State) + " " + escape(o.Text)
	blocks := []slack.Block{}
	if m.Head != "" {
		blocks = append(blocks, slack.NewContextBlock("", mrkdwn(m.Head)))
	}
	if m.Gist != "" {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(fitText(m.Gist, maxText)), nil, nil))
	}
	blocks = append(blocks, slack.NewSectionBlock(mrkdwn(fitText(line, maxText)), nil, nil))
	err = c.api.do(ctx, mUpdate, func(ctx context.Context) error {
		_, _, _, err := c.api.client.UpdateMessageContext(ctx, m.Channel, m.TS, slack.MsgOptionBlocks(blocks...),
			slack.MsgOptionText(fitText(escape(o.Text), maxFallback), false))
		return err
	})
	if gone(err) {
		return nil
	}
	return explain(err, c.dest)
}

func outcomeIcon(state string) string {
	switch state {
	case channel.Answered:
		return ":white_check_mark:"
	case channel.Cancelled:
		return ":no_entry_sign:"
	}
	return ":heavy_minus_sign:"
}

// Reply implements channel.Channel: text in the set's thread (the
// agent's final text, a notice), escaped and cut to Slack's limit; at top
// level when the set's message was deleted.
func (c *Channel) Reply(ctx context.Context, r channel.Ref, text string) error {
	m, err := parseRef(r)
	if err != nil {
		return err
	}
	body := fitText(escape(text), maxText)
	blocks := []slack.Block{slack.NewSectionBlock(mrkdwn(body), nil, nil)}
	_, err = c.post(ctx, m.root(), []slack.MsgOption{slack.MsgOptionBlocks(blocks...),
		slack.MsgOptionText(fitText(escape(text), maxFallback), false), slack.MsgOptionDisableLinkUnfurl(), slack.MsgOptionDisableMediaUnfurl()})
	return explain(err, c.dest)
}

// ephemeral tells user, and only them, text beside message m; it waits
// for a rate-limited method rather than leave the person without a word.
func (c *Channel) ephemeral(ctx context.Context, channelID, thread, user, text string) error {
	return c.api.doWaiting(ctx, mEphemeral, func(ctx context.Context) error {
		return c.postEphemeral(ctx, channelID, thread, user, text)
	})
}

// postEphemeral makes the call of ephemeral.
func (c *Channel) postEphemeral(ctx context.Context, channelID, thread, user, text string) error {
	opts := []slack.MsgOption{slack.MsgOptionText(escape(text), false)}
	if thread != "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	_, err := c.api.client.PostEphemeralContext(ctx, channelID, user, opts...)
	return err
}
