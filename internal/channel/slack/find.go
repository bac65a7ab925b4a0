package slack

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/internal/channel"
)

// Finding a set's message again. Each set's message carries Slack message
// metadata naming the set and its revision, which Slack keeps and hands
// back with conversations.history (or conversations.replies in a thread).
// When askuser was killed after Slack took a message and before the
// message was noted, the relay asks Find before sending the set again,
// and adopts what it finds: one message, which the outcome then updates.
// Reading history needs a scope chat:write does not give
// (channels:history, groups:history for a private channel, im:history for
// a DM): without it Find says it cannot tell, and the set is sent again,
// marked as such.

// metaEvent is the event type of the metadata askuser's questions carry.
const metaEvent = "askuser_question"

// Methods Find calls.
const (
	mHistory = "conversations.history"
	mReplies = "conversations.replies"
)

// findSlack is how far before the send began Find looks: Slack's clock and
// this machine's may differ.
const findSlack = time.Minute

var _ channel.Finder = (*Channel)(nil)

// metadata is what set s's message carries.
func metadata(s channel.Set) slack.MsgOption {
	return slack.MsgOptionMetadata(slack.SlackMetadata{EventType: metaEvent, EventPayload: map[string]any{"key": s.Key, "rev": s.Rev}})
}

// Find implements channel.Finder: the message of s's revision posted since
// then, at the top level of the destination or in s's thread.
func (c *Channel) Find(ctx context.Context, s channel.Set, since time.Time) (channel.Ref, error) {
	where, thread := c.dest, ""
	if len(s.Thread) > 0 {
		if t, err := parseRef(s.Thread); err == nil {
			where, thread = t.Channel, t.root()
		}
	}
	if strings.HasPrefix(where, "U") || strings.HasPrefix(where, "W") {
		return nil, errors.New("a DM named by its user id cannot be read back without its conversation id")
	}
	oldest := since.Add(-findSlack)
	at := fmt.Sprintf("%d.%06d", oldest.Unix(), oldest.Nanosecond()/1000)
	var msgs []slack.Message
	method := mHistory
	if thread != "" {
		method = mReplies
	}
	err := c.api.do(ctx, method, func(ctx context.Context) error {
		if thread != "" {
			var err error
			msgs, _, _, err = c.api.client.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
				ChannelID: where, Timestamp: thread, Oldest: at, Limit: 200, IncludeAllMetadata: true})
			return err
		}
		res, err := c.api.client.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: where, Oldest: at, Limit: 200, IncludeAllMetadata: true})
		if res != nil {
			msgs = res.Messages
		}
		return err
	})
	if err != nil {
		return nil, explain(err, c.dest)
	}
	for _, m := range msgs {
		meta := m.Metadata
		if meta.EventType != metaEvent || meta.EventPayload["key"] != s.Key || fmt.Sprint(meta.EventPayload["rev"]) != fmt.Sprint(s.Rev) {
			continue
		}
		return refJSON(ref{Channel: where, TS: m.Timestamp, Thread: thread, Head: head(s), Gist: gist(s)})
	}
	return nil, nil
}
