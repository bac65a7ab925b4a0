// Package channeltest is a chat platform for tests, and the askuser channel
// that talks to it: what the relay, serve and the end-to-end tests use to
// prove the machinery every channel shares, without a real platform.
//
// Server is a loopback HTTP fake. Its wire format is its own, JSON over
// HTTP, but shaped like the real platforms' where it matters: a bearer
// token on every call (401 otherwise, with the token echoed in the error
// body, as a careless proxy would, so redaction is tested), messages that
// are posted, edited and replied to, and taps fetched by long polling with
// an offset, each carrying the set's key, the rendering's revision and the
// chosen option indexes (never labels), and each answered with a verdict
// (as Telegram's answerCallbackQuery). A test taps as any user and reads
// what each message showed, in order.
//
// Channel is the client: an ordinary channel.Channel, registered as
// "testchan" when this package is linked (askuser's e2e build links it
// with the askuser_testchan build tag; the released binary does not).
//
// It is also the one place for what the channels' tests and fakes share,
// so that a rig or a fake fixed in one platform is fixed in all: the
// questions they ask (DBQuestion, FeaturesQuestion), a relay run until
// stopped (Go) and its log (Log), a set asked in the background (Ask),
// and the fakes' common moves (First, Named). The fakes may import it;
// the channels themselves may not (internal/archtest holds both).
//
// It is test support: no product package imports it (internal/archtest
// holds that); the end-to-end tests link its channel into their own build
// of askuser with the askuser_testchan tag, which a release never sets.
package channeltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// Message is a message posted on the fake platform, and what became of it.
type Message struct {
	ID        int            `json:"id"`
	Room      string         `json:"room"`
	Key       string         `json:"key"`
	Rev       int            `json:"rev"`
	Title     string         `json:"title"`
	Text      string         `json:"text"`
	Questions []ask.Question `json:"questions"`
	// Thread is the message this one was posted under; 0 for none.
	Thread int `json:"thread"`
	// Updates are the outcome lines the message was edited to show, in
	// order; State is the last outcome's state.
	Updates []string `json:"updates"`
	State   string   `json:"state"`
	// Replies are the texts posted beside it.
	Replies []string `json:"replies"`
}

// Pick is what a tap chose for one question: option indexes, and typed
// text for Other.
type Pick struct {
	Options []int  `json:"options,omitempty"`
	Other   string `json:"other,omitempty"`
}

// tap is a tap as the platform hands it to the channel.
type tap struct {
	ID     string `json:"id"`
	Offset int    `json:"offset"`
	User   string `json:"user"`
	Name   string `json:"name"`
	Key    string `json:"key"`
	Rev    int    `json:"rev"`
	Picks  []Pick `json:"picks"`
}

// Verdict is what the person who tapped was told.
type Verdict struct {
	OK   bool   `json:"ok"`
	Text string `json:"text"`
}

// Server is the fake platform.
type Server struct {
	URL   string
	Token string
	srv   *httptest.Server

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced at every change
	messages []*Message
	taps     []tap
	verdicts map[string]chan Verdict
	failSend int
	stall    int                        // the next sends to take and never answer
	limits   map[string][]time.Duration // per path, the next calls' 429s
	hung     map[string]chan struct{}   // per path, closed when it answers again
	calls    []Call
	nextTap  int
}

// Call is one request the platform got, as it answered it.
type Call struct {
	Path   string
	At     time.Time
	Status int
	// Body is what was sent, whole (up to 1 MiB).
	Body string
}

// NewServer starts a fake platform that takes calls with token.
func NewServer(token string) *Server {
	s := &Server{Token: token, changed: make(chan struct{}), verdicts: map[string]chan Verdict{}, limits: map[string][]time.Duration{},
		hung: map[string]chan struct{}{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /send", s.send)
	mux.HandleFunc("POST /update", s.update)
	mux.HandleFunc("POST /reply", s.reply)
	mux.HandleFunc("GET /taps", s.pollTaps)
	mux.HandleFunc("POST /verdict", s.verdict)
	mux.HandleFunc("GET /check", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, map[string]bool{"ok": true}) })
	s.srv = httptest.NewServer(s.record(s.hang(s.limit(s.auth(mux)))))
	s.URL = s.srv.URL
	return s
}

// Close stops the server, answering the calls it hung first.
func (s *Server) Close() {
	s.mu.Lock()
	for path, up := range s.hung {
		close(up)
		delete(s.hung, path)
	}
	s.mu.Unlock()
	s.srv.Close()
}

// auth refuses a call without the token, echoing what it got, as some
// proxies do: the channel must not pass that on unredacted.
func (s *Server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Bearer "+s.Token {
			w.WriteHeader(http.StatusUnauthorized)
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_auth: bad token " + got})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// record keeps every request and how it was answered (Calls).
func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(body))
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		at := time.Now()
		next.ServeHTTP(sw, r)
		s.mu.Lock()
		s.calls = append(s.calls, Call{Path: r.URL.Path, At: at, Status: sw.status, Body: string(body)})
		s.mu.Unlock()
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// limit answers a call that a test rate-limited with 429 and, as Telegram
// does, the seconds to wait in the body (here in milliseconds, so tests
// need not wait whole seconds).
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		waits := s.limits[r.URL.Path]
		var wait time.Duration
		if len(waits) > 0 {
			wait, s.limits[r.URL.Path] = waits[0], waits[1:]
		}
		s.mu.Unlock()
		if wait == 0 {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "rate_limited", "retry_after_ms": wait.Milliseconds()})
	})
}

// RateLimit makes the next n calls of path ("/send", "/reply") get 429,
// saying to wait for wait.
func (s *Server) RateLimit(path string, n int, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.limits[path] = append(s.limits[path], wait)
	}
}

// Calls returns the requests made to path so far ("" for every path), in
// order.
func (s *Server) Calls(path string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Named(s.calls, path, func(c Call) string { return c.Path })
}

// FailSends makes the next n sends fail with 503, as an API that is down.
func (s *Server) FailSends(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failSend = n
}

func (s *Server) bumpLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) send(w http.ResponseWriter, r *http.Request) {
	var m Message
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&m); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failSend > 0 {
		s.failSend--
		http.Error(w, `{"ok":false,"error":"service_unavailable"}`, http.StatusServiceUnavailable)
		return
	}
	m.ID = len(s.messages) + 1
	m.Updates, m.Replies = []string{}, []string{}
	s.messages = append(s.messages, &m)
	s.bumpLocked()
	if s.stall > 0 {
		// Taken, and never answered: the sender waits until it gives up
		// or is killed, not knowing the message was posted.
		s.stall--
		s.mu.Unlock()
		<-r.Context().Done()
		s.mu.Lock()
		return
	}
	writeJSON(w, map[string]any{"ok": true, "id": m.ID})
}

// StallSends makes the next n sends post their message and never answer.
func (s *Server) StallSends(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stall = n
}

// edit applies fn to the message named in the request.
func (s *Server) edit(w http.ResponseWriter, r *http.Request, fn func(m *Message, state, text string)) {
	var req struct {
		ID    int    `json:"id"`
		State string `json:"state"`
		Text  string `json:"text"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.ID < 1 || req.ID > len(s.messages) {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"ok": false, "error": "message_not_found"})
		return
	}
	fn(s.messages[req.ID-1], req.State, req.Text)
	s.bumpLocked()
	writeJSON(w, map[string]bool{"ok": true})
}

func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	s.edit(w, r, func(m *Message, state, text string) { m.State, m.Updates = state, append(m.Updates, text) })
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request) {
	s.edit(w, r, func(m *Message, _, text string) { m.Replies = append(m.Replies, text) })
}

// pollTaps answers with the taps from offset on, waiting up to wait
// seconds for one.
func (s *Server) pollTaps(w http.ResponseWriter, r *http.Request) {
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	wait, _ := strconv.Atoi(r.URL.Query().Get("wait"))
	deadline := time.After(time.Duration(wait) * time.Second)
	for {
		s.mu.Lock()
		var out []tap
		for _, t := range s.taps {
			if t.Offset >= offset {
				out = append(out, t)
			}
		}
		changed := s.changed
		s.mu.Unlock()
		if len(out) > 0 {
			writeJSON(w, out)
			return
		}
		select {
		case <-changed:
		case <-deadline:
			writeJSON(w, []tap{})
			return
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) verdict(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tap string `json:"tap"`
		Verdict
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	ch := s.verdicts[req.Tap]
	s.mu.Unlock()
	if ch != nil {
		select {
		case ch <- req.Verdict:
		default:
		}
	}
	writeJSON(w, map[string]bool{"ok": true})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Messages returns a copy of every message posted, in order.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Message, len(s.messages))
	for i, m := range s.messages {
		out[i] = *m
		out[i].Updates = append([]string(nil), m.Updates...)
		out[i].Replies = append([]string(nil), m.Replies...)
	}
	return out
}

// WaitFor waits up to limit until cond holds of the messages, and returns
// them; ok is false when it never did.
func (s *Server) WaitFor(limit time.Duration, cond func([]Message) bool) ([]Message, bool) {
	deadline := time.After(limit)
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		msgs := s.Messages()
		if cond(msgs) {
			return msgs, true
		}
		select {
		case <-changed:
		case <-deadline:
			return msgs, false
		}
	}
}

// Find waits up to limit for a message that cond accepts; ok is false
// when none came.
func (s *Server) Find(limit time.Duration, cond func(Message) bool) (Message, bool) {
	return First(s.WaitFor, limit, cond)
}

// Tap taps as user (shown as name) on message m's rendering and waits up
// to limit for the verdict; the tap id is returned so it can be delivered
// again (Redeliver).
func (s *Server) Tap(limit time.Duration, user, name string, m Message, picks ...Pick) (string, Verdict, error) {
	s.mu.Lock()
	s.nextTap++
	id := fmt.Sprintf("tap-%d", s.nextTap)
	s.mu.Unlock()
	v, err := s.deliver(limit, tap{ID: id, User: user, Name: name, Key: m.Key, Rev: m.Rev, Picks: picks})
	return id, v, err
}

// Redeliver hands the tap with id to the channel again, as a platform
// that got no acknowledgement does.
func (s *Server) Redeliver(limit time.Duration, id string) (Verdict, error) {
	s.mu.Lock()
	var t tap
	for _, x := range s.taps {
		if x.ID == id {
			t = x
		}
	}
	s.mu.Unlock()
	if t.ID == "" {
		return Verdict{}, fmt.Errorf("no tap %s", id)
	}
	return s.deliver(limit, t)
}

func (s *Server) deliver(limit time.Duration, t tap) (Verdict, error) {
	ch := make(chan Verdict, 1)
	s.mu.Lock()
	t.Offset = len(s.taps)
	s.taps = append(s.taps, t)
	s.verdicts[t.ID] = ch
	s.bumpLocked()
	s.mu.Unlock()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(limit):
		return Verdict{}, fmt.Errorf("tap %s got no verdict within %s", t.ID, limit)
	}
}
