package slack

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// botScopes are the scopes the bot token needs: chat:write covers
// chat.postMessage, chat.update and chat.postEphemeral.
var botScopes = []string{"chat:write"}

// Check implements channel.Channel (askuser channels test): the bot token
// (auth.test, and its scopes as Slack lists them in X-OAuth-Scopes), the
// app-level token (apps.connections.open; the socket is not dialed, so a
// running askuser serve keeps every event), then a sample question to the
// destination. The error says in one line what failed and what to do.
func (c *Channel) Check(ctx context.Context) error {
	var auth *slack.AuthTestResponse
	err := c.api.do(ctx, mAuthTest, func(ctx context.Context) error {
		var err error
		auth, err = c.api.client.AuthTestContext(ctx)
		return err
	})
	if err != nil {
		return explain(err, c.dest)
	}
	if missing := missingScope(auth.Header.Get("X-OAuth-Scopes")); missing != "" {
		return fmt.Errorf("%s lacks the %s scope: add it under OAuth & Permissions, then reinstall the app", envBot, missing)
	}
	err = c.api.do(ctx, mOpen, func(ctx context.Context) error {
		_, _, err := c.api.client.StartSocketModeContext(ctx)
		return err
	})
	if err != nil {
		return explain(err, c.dest)
	}
	_, err = c.Send(ctx, sampleSet())
	return err
}

// missingScope is the first scope the bot needs that scopes (Slack's
// comma-separated list) lacks. A proxy that drops the header leaves
// nothing to check: the sample question then finds out.
func missingScope(scopes string) string {
	if strings.TrimSpace(scopes) == "" {
		return ""
	}
	have := strings.Split(scopes, ",")
	for i := range have {
		have[i] = strings.TrimSpace(have[i])
	}
	for _, need := range botScopes {
		if !slices.Contains(have, need) {
			return need
		}
	}
	return ""
}

// sampleSet is askuser channels test's sample question: what a question
// looks like here. A tap on it is answered and recorded nowhere.
func sampleSet() channel.Set {
	return channel.Set{Key: sampleKey, Rev: 1, Title: "askuser channels test", Request: ask.Request{ID: "askuser-channels-test",
		Questions: []ask.Question{{Header: "Sample", Question: "This is how askuser asks here. Nothing waits on this sample: an answer is only acknowledged.",
			Options: []ask.Option{{Label: "It reads well (Recommended)", Description: "The question arrived and is clear"},
				{Label: "Something is off", Description: "Say what under Other"}}}}}}
}
