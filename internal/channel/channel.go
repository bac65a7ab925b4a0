// Package channel is what askuser's chat channels share: the small
// interface a channel (Slack, Telegram, WhatsApp) implements, the Host it
// delivers answers to, and the rules every channel keeps alike — who may
// answer (AllowList), short ids that fit a platform's callback data
// (Key, Token), and how outcomes read ("Answered: SQLite — by @alice on
// Slack, 14:02").
//
// A channel turns a question set into a message and a tap into answers. It
// knows nothing of sessions, journals or resuming: the Host (askuser's
// relay) decides which set a key names, whether an answer is the first,
// and what happens next. Each platform has one package under
// internal/channel/, the only importer of its SDK.
//
// Configuration is one contract (config.go, read.go, file.go): issue 25's
// table of settings for every platform, read from flags, the environment
// or a 0600 config file (secrets never from flags), checked once, so a
// channel package gets a Config it can trust and plugs in with one
// Register call.
//
// Invariants every channel keeps:
//   - An answer is delivered only from a user on the allow-list; a tap
//     from anyone else is refused ("not allowed to answer", in the
//     platform's private way, or silently on WhatsApp) and is recorded
//     nowhere as an answer.
//   - A tap carries the set's key and the revision of the rendering it was
//     made on. A tap on an outdated rendering is refused.
//   - Answers are built with ask.Selection from the options the Host holds,
//     never from labels a platform echoes back; typed text is cleaned and
//     capped as at the terminal (ask.CleanFreeText); names from the
//     platform are cleaned (ask.Display) before they are shown or stored.
//   - Every answer is a person's (ask.SourcePerson) and names them:
//     Answer.Via is Who.Via() ("@alice on Slack").
//   - Tokens and secrets never appear in errors, logs or stored state. A
//     platform's error text is relayed only through Redact.
//   - A channel answers every callback of an allowed person the platform
//     expects an answer to (Slack's ack, Telegram's answerCallbackQuery),
//     whatever the verdict. A stranger's is acknowledged where the
//     platform needs it, and told "not allowed" off the path of the
//     person's answers, paced and best effort (Strangers): no flood of
//     strangers delays the person.
//   - A delivery (a tap, an update, a message) is acted on once, in every
//     process of the store, for as long as its platform may deliver it
//     again (Taker, KeepTaken).
package channel

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/askuser/askuser/ask"
)

// Set is a question set as a channel shows it.
type Set struct {
	// Key names the set across processes and platforms (see Key): it is
	// what callback data and block ids carry.
	Key string
	// Rev is the revision of this rendering. A tap made on another
	// revision is refused as outdated.
	Rev int
	// Request is the question set, validated. Request.Kind is
	// ask.KindApproval for an approval, whose whole tool input is in
	// Request.Detail (shown as a code block, cut at the platform's limit
	// with a link to Link for the rest).
	Request ask.Request
	// Title says where the question comes from: the session's title, or
	// what asked outside a session ("askuser ask", "Claude Code").
	Title string
	// Link is the inbox page of the set when an askuser serve shows it;
	// "" otherwise. It carries no token (the platform's servers see it): a
	// browser that opened serve's printed URL once opens it.
	Link string
	// Thread, when set, is the message this set follows up (an earlier
	// question of the same session): post in its thread, or as a reply.
	Thread Ref
	// Resent says the set may have been sent before, by a process that
	// stopped (killed, restarted) after the platform took the message and
	// before the message was noted: the channel shows ResentNote on it,
	// since the earlier copy, if any, is never updated.
	Resent bool
}

// ResentNote is the line a set sent again after a restart shows (Set.Resent).
const ResentNote = "Sent again after askuser restarted: if an earlier copy of this question reached you, it works too."

// Ref names a message a channel posted, in the channel's own terms
// (a Slack channel and ts, a Telegram chat and message id, a WhatsApp
// message id), as JSON. It is opaque to everything but the channel that
// made it, and stored by the Host as given.
type Ref json.RawMessage

// MarshalJSON writes the ref as the JSON it holds (a plain []byte would be
// written as base64); an empty ref is null.
func (r Ref) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return json.RawMessage(r).MarshalJSON()
}

// UnmarshalJSON keeps the JSON as given; null is an empty ref.
func (r *Ref) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*r = nil
		return nil
	}
	*r = append((*r)[:0], data...)
	return nil
}

// Outcome is what became of a set, shown on its widget by Update.
type Outcome struct {
	// State is one of the Outcome states.
	State string
	// Text is the line to show, ready-made (OutcomeText), e.g.
	// "Answered: SQLite — by @alice on Slack, 14:02".
	Text string
}

// Outcome states.
const (
	Answered  = "answered"  // answered, here or elsewhere
	Withdrawn = "withdrawn" // the asker stopped waiting (timed out, run stopped)
	Cancelled = "cancelled" // the person declined (askuser cancel)
)

// Who is the person who answered, as a platform names them.
type Who struct {
	// Channel is the channel's name: "slack", "telegram", "whatsapp".
	Channel string `json:"channel"`
	// ID is the platform's id for them: a Slack user id, a Telegram user
	// id, a phone number in E.164 form.
	ID string `json:"id"`
	// Name is how to show them: "@alice", "@username" (else the id), the
	// E.164 number. Cleaned (ask.Display).
	Name string `json:"name"`
}

// Via is the line an answer carries: "@alice on Slack". It is made by
// ask.ViaOn, so ask.PersonVia knows it for a person's.
func (w Who) Via() string { return ask.ViaOn(w.Name, Title(w.Channel)) }

// Tap is a person's complete answer to a set, from a channel.
type Tap struct {
	Key string
	Rev int
	// Answers hold one answer per question, in order, each with
	// Source ask.SourcePerson, Via Who.Via() and AnsweredAt set.
	Answers []ask.Answer
	Who     Who
	// Delivery is the platform's id of what carried the tap (a Slack
	// envelope, a Telegram update or callback query, a WhatsApp message),
	// so a redelivery is recognised and answered once.
	Delivery string
}

// Verdict is the Host's answer to a tap: whether it was taken, and what to
// tell the person who tapped ("" is nothing).
type Verdict struct {
	OK   bool
	Text string
}

// Host is the side of askuser a channel hands taps to: the relay.
type Host interface {
	// Lookup returns the set key names, as it was last sent, and the
	// state this channel saved for it (nil when none). A key that names
	// nothing waiting gives an error wrapping ErrUnknownSet.
	Lookup(ctx context.Context, key string) (Set, json.RawMessage, error)
	// Save keeps the channel's state for a set durably (the refs of its
	// messages, the answers given so far when a set is asked one
	// question at a time), so a restarted process goes on from there.
	Save(ctx context.Context, key string, state json.RawMessage) error
	// Deliver hands over a complete answer. The first answer to a set
	// wins; a later one, a stale revision, or a set no longer waiting
	// gets a Verdict that says so. Deliver is idempotent per
	// Tap.Delivery.
	Deliver(ctx context.Context, t Tap) Verdict
}

// Channel is one chat platform, configured for one destination (a Slack
// channel, a Telegram chat, a WhatsApp number) and one allow-list.
type Channel interface {
	// Name is the channel's frontend name: "slack", "telegram", "whatsapp".
	Name() string
	// Send posts the set and returns the ref of its (first) message.
	// Its state is kept through the Host passed to Serve, so a set is
	// sent only by a process that serves the channel.
	Send(ctx context.Context, s Set) (Ref, error)
	// Update shows the outcome on the set's widget: its buttons are
	// removed or do nothing from then on. A channel that cannot edit a
	// message (WhatsApp) replies with the outcome's text instead.
	Update(ctx context.Context, ref Ref, o Outcome) error
	// Reply posts text beside the set: in its thread on Slack, as a reply
	// to its message on Telegram and WhatsApp (the agent's final text, a
	// notice).
	Reply(ctx context.Context, ref Ref, text string) error
	// Serve receives taps and hands them to h until ctx ends. It returns
	// nil when ctx ends, and an error only when the channel cannot go on
	// (a revoked token); passing faults (a dropped socket, a 429, a long
	// poll gone silent) are retried inside it. A tap it has received is
	// delivered and answered (the verdict, the platform's ack) even when
	// ctx ends meanwhile: the run the tap answers may be stopping because
	// of it.
	Serve(ctx context.Context, h Host) error
	// Check verifies the configuration against the platform and sends a
	// sample question (askuser channels test); its error says in one line
	// what failed: a bad token, a missing scope (named), an unknown
	// destination, a bot the user never started.
	Check(ctx context.Context) error
}

// Webhook is implemented by a channel whose platform calls askuser
// (WhatsApp's webhook): askuser serve serves Handler at /channels/<name>,
// outside the inbox's token and Host checks, so the handler makes its
// own (a verify token, a signature) and answers within the platform's
// limit. It reads a delivery's body only through WebhookBodies: one
// without its signature header is refused unread, and bodies are read a
// few at a time, each within seconds, since anyone who can reach the
// port can send one. Taps it takes go to the Host given to Serve; before
// Serve is called it has none, and answers so.
type Webhook interface {
	Handler() http.Handler
}

// ErrUnknownSet: no set waiting under that key.
var ErrUnknownSet = errors.New("no such question set")

// ErrRefused is wrapped by a send the platform refused for a reason a
// retry will not fix (outside WhatsApp's 24-hour window, a chat the bot
// cannot write to); its text says why and what to do.
var ErrRefused = errors.New("refused by the platform")

// Title names a channel for a person: "Slack", "Telegram", "WhatsApp".
func Title(name string) string {
	switch name {
	case "slack":
		return "Slack"
	case "telegram":
		return "Telegram"
	case "whatsapp":
		return "WhatsApp"
	}
	return ask.Display(name)
}

// OutcomeText is the line an answered set's widget shows:
// "Answered: SQLite — by @alice on Slack, 14:02". by names who answered
// (a person in a channel, "a person at the terminal", "the answers file"); at is
// shown as the local hour and minute.
func OutcomeText(answers []ask.Answer, by string, at time.Time) string {
	return "Answered: " + Summary(answers) + " — by " + by + ", " + at.Local().Format("15:04")
}
