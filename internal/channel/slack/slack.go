// Package slack is askuser's Slack channel: a question set is one Block
// Kit message, a person answers it with one Submit, and the answer comes
// back over Socket Mode, so no public endpoint is needed. It is the only
// importer of github.com/slack-go/slack (pinned in go.mod: its minor
// versions break APIs).
//
// A set renders as (render.go): a context line saying where it comes
// from, then per question its header and text, radio buttons (single
// select) or checkboxes (multiSelect) with the descriptions and
// "(Recommended)" marked, and a plain-text input for Other; an approval
// also shows its whole tool input as a code block, cut at Slack's limit
// with a link to the inbox page for the rest; one Submit button ends it.
// The choices sit in input blocks, so Slack sends nothing until Submit,
// and then the whole form in state.values (tap.go). A Submit that leaves
// a multi-select empty is refused once, and taken when pressed again
// (empty.go), so no single stray press answers it empty. Every block id and
// the button's action id carry a channel.Token: the set's key, the
// rendering's revision and the question, so a tap on an outdated
// rendering is refused and nothing a model wrote is echoed back as data.
//
// Invariants, beyond those of package channel:
//   - Every Socket Mode envelope is acknowledged within Slack's 3 s: as
//     soon as the tap is taken or refused, and at the latest after
//     Options.AckWithin, whether or not the Host has answered by then. A
//     process killed before the ack leaves Slack to show the person its
//     own "try again" error, and nothing half recorded.
//   - A tap is answered once: one delivery id per click, remembered in
//     every process of the store (the Host's record, channel.Taker), so
//     an envelope Slack sends again after a restart is not acted on
//     twice.
//   - A stranger's Submit is acknowledged at once, records nothing, and
//     is told "not allowed" off the person's path, paced and best effort
//     (channel.Strangers): no flood of strangers spends the person's
//     time or the chat.postEphemeral rate limit their refusals need.
//   - A method Slack rate-limited (429, Retry-After) is not called again
//     before that time has passed (api.go).
//   - A socket that goes silent (no frame, not even a ping) for longer
//     than Options.PingTimeout plus Options.Grace is abandoned and opened
//     anew; a Web API call is abandoned after Options.CallTimeout plus
//     Options.Grace. No wait on Slack is unbounded.
//   - Tokens never leave the process except to Slack's API base: every
//     error text is redacted, and an API base on plain http is allowed
//     only on a loopback address.
package slack

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/channel"
)

// Name is the channel's frontend name.
const Name = "slack"

// The secrets' variables.
const (
	envBot = "SLACK_BOT_TOKEN"
	envApp = "SLACK_APP_TOKEN"
)

func init() {
	channel.Register(channel.Spec{Name: Name, Normalise: NormaliseUser, New: func(c channel.Config) (channel.Channel, error) {
		opt, err := OptionsFromEnv(os.Getenv)
		if err != nil {
			return nil, err
		}
		ch, err := New(c, opt)
		if err != nil {
			return nil, err
		}
		return ch, nil
	}})
}

// The variables that tune how long a silent connection is waited on:
// for tests, which cannot wait 40 s for a socket to be abandoned, and for
// a proxy that pings less often than Slack. Not secrets, not part of the
// channel's table.
const (
	EnvPingTimeout = "ASKUSER_SLACK_PING_TIMEOUT"
	EnvGrace       = "ASKUSER_SLACK_GRACE"
)

// OptionsFromEnv reads EnvPingTimeout and EnvGrace (Go durations, such
// as 30s); unset ones keep their defaults.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	for _, v := range []struct {
		env string
		d   *time.Duration
	}{{EnvPingTimeout, &o.PingTimeout}, {EnvGrace, &o.Grace}} {
		raw := strings.TrimSpace(getenv(v.env))
		if raw == "" {
			continue
		}
		d, err := time.ParseDuration(raw)
		if err != nil || d <= 0 {
			return Options{}, fmt.Errorf("%s: %s is not a positive duration like 30s", v.env, quote(raw))
		}
		*v.d = d
	}
	return o, nil
}

// Options tune a Channel; the zero value is what askuser uses.
type Options struct {
	// PingTimeout is how long Slack may leave the socket silent: slack-go's
	// own default of 30 s, the longest Slack goes between pings.
	PingTimeout time.Duration
	// CallTimeout is how long a Web API call may take: 20 s.
	CallTimeout time.Duration
	// Grace is added to both before a connection is abandoned: 10 s.
	Grace time.Duration
	// AckWithin is the longest a tap waits for the Host's verdict before
	// its envelope is acknowledged anyway: 2 s, inside Slack's 3 s.
	AckWithin time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.PingTimeout, 30*time.Second)
	def(&o.CallTimeout, 20*time.Second)
	def(&o.Grace, 10*time.Second)
	def(&o.AckWithin, 2*time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Channel is the Slack channel for one destination and allow-list.
type Channel struct {
	cfg  channel.Config
	opt  Options
	api  *api
	dest string
	// seen are the clicks taken (and the Host's record of them).
	seen *channel.Recent
	// strangers are the refusals to people not on the allow-list,
	// made off the person's path.
	strangers *channel.Strangers
	// empties are the empty Submits refused once (empty.go).
	empties empties
}

var _ channel.Channel = (*Channel)(nil)

// New checks cfg and returns the channel. Every error names the variable
// to fix and quotes no secret.
func New(cfg channel.Config, opt Options) (*Channel, error) {
	opt = opt.withDefaults()
	var errs []error
	if err := checkToken(envBot, cfg.Secret(envBot), "xoxb-", "a bot token"); err != nil {
		errs = append(errs, err)
	}
	if err := checkToken(envApp, cfg.Secret(envApp), "xapp-", "an app-level token"); err != nil {
		errs = append(errs, err)
	}
	if !isID(cfg.Dest, "CGDUW") {
		errs = append(errs, fmt.Errorf("ASKUSER_SLACK_CHANNEL: %s is not a Slack channel id (C0123ABCD) or user id (U0123ABCD); "+
			"find it in the channel's details, or the person's profile (Copy member ID)", quote(cfg.Dest)))
	}
	base, err := apiBase(cfg.API)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	cfg.API = base
	return &Channel{cfg: cfg, opt: opt, dest: cfg.Dest, api: newAPI(cfg, opt), seen: channel.NewRecent(256),
		strangers: channel.NewStrangers()}, nil
}

// Name implements channel.Channel.
func (c *Channel) Name() string { return Name }

// NormaliseUser checks a Slack user id of the allow-list: U… or W…, in
// capitals, as Slack writes them. A name ("@alice") is refused: names
// change and can be taken, ids cannot.
func NormaliseUser(id string) (string, error) {
	up := strings.ToUpper(strings.TrimSpace(id))
	if !isID(up, "UW") {
		return "", fmt.Errorf("%s is not a Slack user id (U0123ABCD): copy it from the person's profile (⋮ → Copy member ID)", quote(id))
	}
	return up, nil
}

// isID reports whether s looks like a Slack id starting with one of
// first: a capital letter, then capitals and digits.
func isID(s, first string) bool {
	if len(s) < 3 || len(s) > 24 || !strings.ContainsRune(first, rune(s[0])) {
		return false
	}
	return strings.Trim(s[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == ""
}

// quote shows a rejected value, cut (ask.Excerpt's length); it is never
// given a secret.
func quote(s string) string { return fmt.Sprintf("%q", channel.Cut(s, 60)) }

// checkToken says what is wrong with a token without quoting it.
func checkToken(env, tok, prefix, what string) error {
	switch {
	case strings.HasPrefix(tok, prefix):
		return nil
	case env == envBot && strings.HasPrefix(tok, "xapp-"):
		return fmt.Errorf("%s holds an app-level token (xapp-…); it belongs in %s, and %s takes the bot token (xoxb-…)", env, envApp, env)
	case env == envApp && strings.HasPrefix(tok, "xoxb-"):
		return fmt.Errorf("%s holds a bot token (xoxb-…); it belongs in %s, and %s takes the app-level token (xapp-…, with connections:write)", env, envBot, env)
	}
	return fmt.Errorf("%s is not %s: it should start with %s", env, what, prefix)
}

// apiBase checks the API base: http or https, ending in /api/ as
// slack-go wants it (a missing final slash is added). Plain http would
// send the tokens in the clear, so it is allowed only to this machine
// (tests, a local proxy).
func apiBase(raw string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("ASKUSER_SLACK_API_URL %s %s", quote(raw), why)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return bad("is not an http(s) URL like https://slack.com/api/")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if !strings.HasSuffix(u.Path, "/api/") {
		return bad("must end in /api/, like https://slack.com/api/")
	}
	// Plain http to another machine is refused where every channel's API
	// base is read (channel.Spec.Read).
	return u.String(), nil
}

// httpClient is the client every call goes through: bounded, so a call
// that goes silent is abandoned.
func httpClient(opt Options) *http.Client {
	return &http.Client{Timeout: opt.CallTimeout + opt.Grace}
}
