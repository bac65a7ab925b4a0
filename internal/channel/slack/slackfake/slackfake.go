// Package slackfake is a Slack workspace on loopback, for tests: the Web
// API methods askuser calls and Socket Mode, in Slack's wire format, with
// a person who fills in a message and presses Submit, and the faults
// issue 25 names on demand.
//
// Web API (under URL, which ends in /api/ as ASKUSER_SLACK_API_URL does):
// auth.test (with X-OAuth-Scopes), apps.connections.open (the app-level
// token only; it returns the Socket Mode URL), chat.postMessage (with
// message metadata), chat.update, chat.postEphemeral, and
// conversations.history and conversations.replies (when Config.Scopes
// has channels:history). Requests are form-encoded or JSON,
// with the token in the form or as a bearer header, and answers are
// Slack's {"ok":…,"error":…}. Messages are checked against Block Kit's
// documented limits (blocks.go) and refused with invalid_blocks as Slack
// refuses them, so a rendering that Slack would refuse fails here too.
//
// Socket Mode (socket.go): a websocket that sends hello, pings, and an
// interactive envelope for each Submit, reads the acks back (Slack wants
// one within 3 s), and can be told to send disconnect, drop the
// connection, or go silent.
//
// It is written from Slack's documentation, not from slack-go's types, so
// a test against it checks askuser's client against the wire rather than
// against itself. slack-go's slacktest was the starting point and stops
// short of what these tests need: it checks no token, serves RTM rather
// than Socket Mode, has no chat.update, and stamps messages with
// one-second timestamps that collide.
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package slackfake

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// Ids of the fake workspace.
const (
	TeamID  = "T0FAKE"
	AppID   = "A0FAKE"
	BotUser = "U0ASKUSER"
	BotID   = "B0ASKUSER"
	// Channel is a channel the bot is in.
	Channel = "C0ASKUSER"
)

// Config configures a Server; empty fields get the defaults.
type Config struct {
	BotToken string // default "xoxb-fake-bot-token"
	AppToken string // default "xapp-fake-app-token"
	// Scopes are what auth.test lists in X-OAuth-Scopes: "chat:write".
	Scopes string
	// PingEvery is how often a socket is pinged: 200 ms.
	PingEvery time.Duration
	// AckWithin is how long Slack waits for an ack: 3 s.
	AckWithin time.Duration
}

// Message is a message in the workspace, as posted and then updated.
type Message struct {
	Channel string `json:"channel"`
	TS      string `json:"ts"`
	Thread  string `json:"thread_ts,omitempty"`
	Text    string `json:"text"`
	// Blocks are the message's blocks now; Posted are those it was
	// posted with.
	Blocks  json.RawMessage `json:"blocks,omitempty"`
	Posted  json.RawMessage `json:"-"`
	Updates int             `json:"-"`
	Deleted bool            `json:"-"`
	// Metadata is the message metadata it was posted with, if any.
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Ephemeral is a message only User saw.
type Ephemeral struct {
	Channel, User, Thread, Text string
}

// Call is one Web API call, as the server answered it.
type Call struct {
	Method string
	At     time.Time
	Status int
	Error  string
	Form   url.Values
}

// Server is the fake workspace.
type Server struct {
	// URL is the Web API base, ending in /api/.
	URL string
	cfg Config
	srv *httptest.Server

	mu         sync.Mutex
	changed    chan struct{}
	channels   map[string]bool // id → the bot is a member
	messages   []*Message
	ephemerals []Ephemeral
	calls      []Call
	faults     map[string][]fault
	echo       bool
	next       int
	base       int64
	sock       sockets
}

// fault is what the next call of a method gets instead of an answer.
type fault struct {
	status     int    // an HTTP status (429, 503), or 0
	retryAfter int    // for 429: seconds
	code       string // a Slack error code, with status 0
	stall      bool   // done, and never answered
}

// NewServer starts a fake workspace; Close stops it.
func NewServer(cfg Config) *Server {
	if cfg.BotToken == "" {
		cfg.BotToken = "xoxb-fake-bot-token"
	}
	if cfg.AppToken == "" {
		cfg.AppToken = "xapp-fake-app-token"
	}
	if cfg.Scopes == "" {
		cfg.Scopes = "chat:write"
	}
	if cfg.PingEvery <= 0 {
		cfg.PingEvery = 200 * time.Millisecond
	}
	if cfg.AckWithin <= 0 {
		cfg.AckWithin = 3 * time.Second
	}
	s := &Server{cfg: cfg, changed: make(chan struct{}), channels: map[string]bool{Channel: true},
		faults: map[string][]fault{}, base: time.Now().Unix()}
	s.sock.init()
	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.api)
	mux.HandleFunc("/link/", s.link)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/api/"
	return s
}

// Close stops the server and its sockets.
func (s *Server) Close() {
	for _, c := range s.current() {
		c.ws.Close()
	}
	s.srv.Close()
}

// BotToken and AppToken are the tokens the workspace takes.
func (s *Server) BotToken() string { return s.cfg.BotToken }
func (s *Server) AppToken() string { return s.cfg.AppToken }

// AddChannel adds a channel; member says whether the bot is in it.
func (s *Server) AddChannel(id string, member bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[id] = member
}

// RateLimit makes the next call of method get 429 with Retry-After.
func (s *Server) RateLimit(method string, retryAfter int) {
	s.addFault(method, fault{status: http.StatusTooManyRequests, retryAfter: retryAfter})
}

// Fail makes the next n calls of method get HTTP status (503: the API is
// down).
func (s *Server) Fail(method string, n, status int) {
	for range n {
		s.addFault(method, fault{status: status})
	}
}

// Stall makes the next call of method be done (a message posted) and
// never answered: the caller waits until it gives up, or is killed, not
// knowing that Slack took it.
func (s *Server) Stall(method string) { s.addFault(method, fault{stall: true}) }

// Refuse makes the next call of method get Slack error code.
func (s *Server) Refuse(method, code string) { s.addFault(method, fault{code: code}) }

// EchoTokens makes every error quote the token it was given, as a
// careless proxy does.
func (s *Server) EchoTokens(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.echo = on
}

func (s *Server) addFault(method string, f fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[method] = append(s.faults[method], f)
}

// Delete is a person deleting the message with ts.
func (s *Server) Delete(ts string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.find("", ts); m != nil {
		m.Deleted = true
		s.bumpLocked()
	}
}

func (s *Server) bumpLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Messages are the workspace's messages, in the order posted.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Message, len(s.messages))
	for i, m := range s.messages {
		out[i] = *m
	}
	return out
}

// Ephemerals are the messages only one person saw, in order.
func (s *Server) Ephemerals() []Ephemeral {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Ephemeral(nil), s.ephemerals...)
}

// Calls are the Web API calls of method ("" for all), in order.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return channeltest.Named(s.calls, method, func(c Call) string { return c.Method })
}

// WaitFor waits until cond holds of the server, or limit passes; it
// reports whether cond held. cond runs without the server's lock.
func (s *Server) WaitFor(limit time.Duration, cond func(s *Server) bool) bool {
	deadline := time.After(limit)
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if cond(s) {
			return true
		}
		select {
		case <-changed:
		case <-deadline:
			return cond(s)
		}
	}
}
