// Package whatsappfake is WhatsApp's Cloud API on loopback, for tests: the
// Graph API's messages endpoint and phone number node, speaking the real
// JSON (Bearer token, the Graph error object, message ids that are
// wamids), and the person on the other side, whose taps and typed
// replies reach askuser as signed webhook POSTs, the way Meta delivers
// them (and delivers again until it gets 200).
//
// It checks what askuser sends against the Cloud API's limits (three
// reply buttons of 20 characters, ten list rows of 24 with descriptions
// of 72, bodies of 1,024 or 4,096 characters…), refusing a message that
// breaks one as Meta does (code 100), so a rendering mistake fails a
// test. Faults are switched on by the test: the API down, rate limits
// with Retry-After, calls that go silent, and the 24-hour window
// (refused at once, code 131047, or in a failed status afterwards, as
// the Cloud API does). It imports nothing of askuser's: it is a second
// reading of the wire format, not a copy of the client's.
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package whatsappfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// DisplayNumber is the business number as the fake shows it.
const DisplayNumber = "15550100000"

// Sent is a message the business sent, as the fake received it.
type Sent struct {
	ID      string          `json:"id"`
	To      string          `json:"to"`
	Type    string          `json:"type"`
	ReplyTo string          `json:"reply_to,omitempty"`
	Version string          `json:"version"`
	JSON    json.RawMessage `json:"json"`
	At      time.Time       `json:"at"`
	// Failed is the status error code when WhatsApp did not deliver it
	// (131047 outside the window); 0 when delivered.
	Failed int `json:"failed,omitempty"`
	msg    outMessage
}

// Call is one API call the fake answered.
type Call struct {
	At     time.Time
	Method string
	Path   string
	Status int
	// Body is what was sent (up to 2 MiB), whatever became of it.
	Body string
}

// Server is the fake Cloud API and the people on WhatsApp.
type Server struct {
	URL       string // the Graph root, without a version
	Token     string
	PhoneID   string
	AppSecret string
	// Webhook is where deliveries go: askuser serve's /channels/whatsapp.
	Webhook string

	srv *httptest.Server

	mu      sync.Mutex
	changed chan struct{}
	sent    []*Sent
	calls   []Call
	nextID  int
	heard   map[string]time.Time
	faults  faults
	hang    chan struct{}
}

type faults struct {
	down, limited, silent int
	retryAfter            int
	window                bool // enforce the 24-hour window
	windowAtOnce          bool // refuse with an error, not a failed status
}

// New starts a fake Cloud API that takes token and serves phoneID;
// deliveries are signed with appSecret.
func New(token, phoneID, appSecret string) *Server {
	s := &Server{Token: token, PhoneID: phoneID, AppSecret: appSecret, changed: make(chan struct{}),
		heard: map[string]time.Time{}, hang: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.route))
	s.URL = s.srv.URL
	return s
}

// Close stops the fake; calls left hanging are let go.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.hang:
	default:
		close(s.hang)
	}
	s.mu.Unlock()
	s.srv.Close()
}

// SetToken changes the token the fake takes (a token revoked).
func (s *Server) SetToken(token string) { s.fault(func(*faults) { s.Token = token }) }

// SetPhoneID changes the phone number id the fake serves.
func (s *Server) SetPhoneID(id string) { s.fault(func(*faults) { s.PhoneID = id }) }

// APIDown makes the next n sends fail with 503, as during an outage.
func (s *Server) APIDown(n int) { s.fault(func(f *faults) { f.down = n }) }

// RateLimit makes the next n sends fail with 429 (code 130429) and
// Retry-After: seconds.
func (s *Server) RateLimit(n, seconds int) {
	s.fault(func(f *faults) { f.limited, f.retryAfter = n, seconds })
}

// Silence makes the next n calls hang without an answer until the client
// gives up.
func (s *Server) Silence(n int) { s.fault(func(f *faults) { f.silent = n }) }

// EnforceWindow refuses free-form messages to a person who has not
// written within 24 hours: at once (code 131047) when atOnce, else taken
// and then failed in a status delivered to the webhook, as the Cloud API
// does.
func (s *Server) EnforceWindow(atOnce bool) {
	s.fault(func(f *faults) { f.window, f.windowAtOnce = true, atOnce })
}

func (s *Server) fault(fn func(*faults)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(&s.faults)
}

// Sent returns the messages sent so far, in order.
func (s *Server) Sent() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Sent, len(s.sent))
	for i, m := range s.sent {
		out[i] = *m
	}
	return out
}

// Calls returns the API calls so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// WaitFor waits up to limit for the messages sent to satisfy cond.
func (s *Server) WaitFor(limit time.Duration, cond func([]Sent) bool) ([]Sent, bool) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if ms := s.Sent(); cond(ms) {
			return ms, true
		}
		select {
		case <-ch:
		case <-deadline.C:
			ms := s.Sent()
			return ms, cond(ms)
		}
	}
}

// First waits up to limit for a message sent that cond accepts, and
// returns the first.
func (s *Server) First(limit time.Duration, cond func(Sent) bool) (Sent, bool) {
	return channeltest.First(s.WaitFor, limit, cond)
}

// Transcript is every message sent so far as the phone shows it, for a
// failing test to say what there was.
func (s *Server) Transcript() string {
	var b strings.Builder
	for _, m := range s.Sent() {
		b.WriteString(Render(m))
	}
	return b.String()
}

func (s *Server) changedLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	body, _ := io.ReadAll(io.LimitReader(r.Body, 2<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	status := s.serve(w, r, parts)
	s.mu.Lock()
	s.calls = append(s.calls, Call{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: status, Body: string(body)})
	s.changedLocked()
	s.mu.Unlock()
}

// serve answers one call and returns its status.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, parts []string) int {
	if len(parts) < 2 || !isVersion(parts[0]) {
		return graphError(w, http.StatusBadRequest, 100, 0, "Unknown path components: /"+strings.Join(parts, "/"))
	}
	if status, ok := s.auth(w, r); !ok {
		return status
	}
	if s.take(func(f *faults) bool { return take(&f.silent) }) {
		select { // gone silent: nothing until the client hangs up
		case <-r.Context().Done():
		case <-s.hang:
		}
		return 0
	}
	s.mu.Lock()
	phoneID := s.PhoneID
	s.mu.Unlock()
	if parts[1] != phoneID {
		return graphError(w, http.StatusBadRequest, 100, 33, fmt.Sprintf(
			"Unsupported %s request. Object with ID '%s' does not exist, cannot be loaded due to missing permissions, or does not support this operation", strings.ToLower(r.Method), parts[1]))
	}
	switch {
	case len(parts) == 2 && r.Method == http.MethodGet:
		return writeJSON(w, http.StatusOK, map[string]string{"display_phone_number": "+1 555-010-0000", "verified_name": "askuser test", "id": phoneID})
	case len(parts) == 3 && parts[2] == "messages" && r.Method == http.MethodPost:
		return s.send(w, r, parts[0])
	}
	return graphError(w, http.StatusBadRequest, 100, 0, "Unsupported request")
}

func isVersion(s string) bool {
	v, ok := strings.CutPrefix(s, "v")
	_, err := strconv.ParseFloat(v, 64)
	return ok && err == nil && strings.Contains(v, ".")
}

// auth checks the Bearer token. A wrong one is refused as Graph does, its
// message quoting the token it was given (so a client that shows the
// platform's words unredacted is caught).
func (s *Server) auth(w http.ResponseWriter, r *http.Request) (int, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	want := s.Token
	s.mu.Unlock()
	if ok && tok == want {
		return 0, true
	}
	return graphError(w, http.StatusUnauthorized, 190, 0, "Malformed access token "+tok), false
}

func (s *Server) take(fn func(*faults) bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(&s.faults)
}

func take(n *int) bool {
	if *n > 0 {
		*n--
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) int {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
	return status
}

// graphError writes the Graph error object.
func graphError(w http.ResponseWriter, status, code, subcode int, msg string) int {
	e := map[string]any{"message": msg, "type": "OAuthException", "code": code, "fbtrace_id": "AfakeTrace0"}
	if subcode != 0 {
		e["error_subcode"] = subcode
	}
	return writeJSON(w, status, map[string]any{"error": e})
}

// cloudError writes a Cloud API error, with error_data.details.
func cloudError(w http.ResponseWriter, status, code int, title, details string) int {
	return writeJSON(w, status, map[string]any{"error": map[string]any{"message": "(#" + strconv.Itoa(code) + ") " + title,
		"type": "OAuthException", "code": code, "error_data": map[string]string{"messaging_product": "whatsapp", "details": details},
		"fbtrace_id": "AfakeTrace1"}})
}
