// Package telegramfake is a Telegram Bot API server on loopback, for tests:
// the real wire format, so askuser's telegram channel (and the library
// under it) is tested end to end without the internet.
//
// What it speaks, as https://core.telegram.org/bots/api describes it:
//   - every method at /bot<token>/<method>, by GET or POST, its parameters
//     in the query string, a urlencoded or multipart form (objects as JSON
//     text, as Telegram takes them) or a JSON body; every answer is
//     {"ok":true,"result":…} or {"ok":false,"error_code":N,"description":…}
//     with the same HTTP status, and parameters.retry_after on a 429;
//   - getMe, getUpdates (long polling with offset, limit, timeout,
//     allowed_updates; an offset confirms the updates before it; a second
//     poller makes the first get 409 Conflict), sendMessage,
//     editMessageText, editMessageReplyMarkup, answerCallbackQuery;
//   - the checks a real server makes that a client can trip on: HTML
//     parse mode (only Telegram's tags; bad markup is "can't parse
//     entities"), text of 1–4096 characters after parsing, callback_data
//     of 1–64 bytes, an inline button with exactly one action, a reply to
//     a message that exists (unless allow_sending_without_reply), edits
//     of a message that exists and changes, a callback query answered
//     once.
//
// A test plays the people in the chat (Press, Reply, Delete) and the
// faults (RateLimit, Down, Silence, Stall, Delay, EchoToken, Refuse), and reads what the
// bot did: every message with its edits, every call as received (Calls),
// and a text rendering of a message with its keyboard (Render).
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package telegramfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// User is a Telegram user, as the fake shows them in updates.
type User struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
	Username  string `json:"username,omitempty"`
}

// Call is a method call as the fake received it: its parameters with the
// JSON-valued ones (reply_markup, reply_parameters, allowed_updates)
// decoded, and what it answered.
type Call struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
	At     time.Time      `json:"at"`
	// Status is the HTTP status answered; 0 while a long poll waits, or
	// when the client went away first.
	Status int `json:"status"`
	// Ended is when the answer was sent or the client went away.
	Ended time.Time `json:"ended"`
}

// Server is the fake Bot API.
type Server struct {
	// URL is the API base, as ASKUSER_TELEGRAM_API_URL takes it.
	URL   string
	Token string
	Bot   User
	srv   *httptest.Server

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced at every change
	closing  chan struct{} // closed by Close
	chats    map[int64]*chatState
	messages []*Message
	updates  []update // not yet confirmed by an offset
	nextUpd  int64
	queries  map[string]*query
	nextQ    int
	calls    []*Call
	poller   chan struct{} // closed to end the long poll under way with 409
	faults   faults
}

type faults struct {
	rate  map[string][]int         // method → retry_after of the next answers
	down  map[string]int           // method → how many more calls get a 502
	stall map[string]int           // method → how many more calls get no answer at all
	delay map[string]time.Duration // method → how long each call takes to be answered
	keep  bool                     // offsets confirm nothing
	echo  bool                     // errors echo the request's path, token and all
}

// NewServer starts a fake Bot API for token (digits, ':', then 30 or
// more characters, as a real one). The bot is @askuser_fake_bot.
func NewServer(token string) *Server {
	id, _, _ := strings.Cut(token, ":")
	botID, _ := strconv.ParseInt(id, 10, 64)
	s := &Server{Token: token, Bot: User{ID: botID, IsBot: true, FirstName: "askuser", Username: "askuser_fake_bot"},
		changed: make(chan struct{}), closing: make(chan struct{}), chats: map[int64]*chatState{}, queries: map[string]*query{}, nextUpd: 1,
		faults: faults{rate: map[string][]int{}, down: map[string]int{}, stall: map[string]int{}, delay: map[string]time.Duration{}}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server; a call it holds silent ends.
func (s *Server) Close() {
	close(s.closing)
	s.srv.Close()
}

func (s *Server) bumpLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// apiError is a Bot API error answer.
type apiError struct {
	code       int
	desc       string
	retryAfter int
}

func errorf(code int, format string, args ...any) *apiError {
	return &apiError{code: code, desc: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, "Bad Request: "+format, args...)
}

// methods are the Bot API methods the fake knows.
var methods = map[string]func(s *Server, p params, r *http.Request) (any, *apiError){
	"getMe":                  (*Server).getMe,
	"getUpdates":             (*Server).getUpdates,
	"sendMessage":            (*Server).sendMessage,
	"editMessageText":        (*Server).editMessageText,
	"editMessageReplyMarkup": (*Server).editMessageReplyMarkup,
	"answerCallbackQuery":    (*Server).answerCallbackQuery,
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	token, method, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if !strings.HasPrefix(r.URL.Path, "/bot") || !ok {
		s.reply(w, r, nil, nil, errorf(http.StatusNotFound, "Not Found"))
		return
	}
	p, err := readParams(r)
	// Read the body to its end: only then does net/http watch the
	// connection, and a client that goes away ends r.Context().
	_, _ = io.Copy(io.Discard, r.Body)
	call := &Call{Method: method, Params: p.record(), At: time.Now()}
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.bumpLocked()
	fault := s.faultLocked(method)
	stalled := s.faults.stall[method] > 0 && token == s.Token
	if stalled {
		s.faults.stall[method]--
	}
	delay := s.faults.delay[method]
	s.mu.Unlock()
	if delay > 0 { // the network's round trip to a real Bot API
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
		case <-s.closing:
		}
	}
	if stalled {
		// Gone silent: no answer until the client gives up.
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		s.reply(w, r, call, nil, nil)
		return
	}
	var result any
	var aerr *apiError
	switch fn := methods[method]; {
	case token != s.Token:
		aerr = errorf(http.StatusUnauthorized, "Unauthorized")
	case fn == nil:
		aerr = errorf(http.StatusNotFound, "Not Found")
	case err != nil:
		aerr = badRequest("%v", err)
	case fault != nil:
		aerr = fault
	default:
		result, aerr = fn(s, p, r)
	}
	s.reply(w, r, call, result, aerr)
}

// faultLocked is the fault the next call of method meets, if any.
func (s *Server) faultLocked(method string) *apiError {
	if n := s.faults.down[method]; n > 0 {
		s.faults.down[method] = n - 1
		return &apiError{code: http.StatusBadGateway}
	}
	if q := s.faults.rate[method]; len(q) > 0 {
		s.faults.rate[method] = q[1:]
		return &apiError{code: http.StatusTooManyRequests, desc: fmt.Sprintf("Too Many Requests: retry after %d", q[0]), retryAfter: q[0]}
	}
	return nil
}

// reply writes the answer and records it on call. A 502 is what a proxy
// in front of a Bot API that is down answers: HTML, not JSON.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, call *Call, result any, aerr *apiError) {
	status := http.StatusOK
	var body []byte
	switch {
	case aerr != nil && aerr.code == http.StatusBadGateway:
		status = aerr.code
		w.Header().Set("Content-Type", "text/html")
		body = []byte("<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>\n")
	case aerr != nil:
		status = aerr.code
		out := map[string]any{"ok": false, "error_code": aerr.code, "description": aerr.desc}
		if aerr.retryAfter > 0 {
			out["parameters"] = map[string]int{"retry_after": aerr.retryAfter}
		}
		body, _ = json.Marshal(out)
	default:
		body, _ = json.Marshal(map[string]any{"ok": true, "result": result})
	}
	s.mu.Lock()
	if s.faults.echo && status == http.StatusBadGateway {
		// A careless proxy: its error page names the URL asked for.
		body = append(body, []byte("<p>upstream failed for "+r.URL.String()+"</p>\n")...)
	}
	if call != nil && r.Context().Err() == nil {
		call.Status, call.Ended = status, time.Now()
	} else if call != nil {
		call.Ended = time.Now()
	}
	s.bumpLocked()
	s.mu.Unlock()
	if aerr == nil || aerr.code != http.StatusBadGateway {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// params are a call's parameters: JSON values, from a JSON body, or form
// strings (whose objects are JSON text).
type params map[string]json.RawMessage

// jsonValued are the parameters that hold objects or arrays.
var jsonValued = map[string]bool{"reply_markup": true, "reply_parameters": true, "allowed_updates": true,
	"link_preview_options": true}

func readParams(r *http.Request) (params, error) {
	p := params{}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case r.Method == http.MethodPost && mt == "application/json":
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			return p, err
		}
		if len(body) > 0 {
			if err := json.Unmarshal(body, &p); err != nil {
				return p, fmt.Errorf("can't parse JSON object: %v", err)
			}
		}
		return p, nil
	case r.Method == http.MethodPost && mt == "multipart/form-data":
		// A method without parameters may come as a multipart body with
		// no parts at all (go-telegram/bot sends getMe so); Telegram
		// takes it.
		if err := r.ParseMultipartForm(1 << 20); err != nil && !errors.Is(err, io.EOF) {
			return p, err
		}
	default:
		if err := r.ParseForm(); err != nil {
			return p, err
		}
	}
	form := url.Values(r.Form)
	if r.MultipartForm != nil {
		form = r.MultipartForm.Value
	}
	for k, v := range form {
		if len(v) == 0 {
			continue
		}
		if jsonValued[k] {
			p[k] = json.RawMessage(v[0])
		} else {
			b, _ := json.Marshal(v[0])
			p[k] = b
		}
	}
	return p, nil
}

// str is a parameter as text: a JSON string's content, or a number's
// digits.
func (p params) str(name string) string {
	raw, ok := p[name]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

// int is an integer parameter; ok is false when it is missing or not one.
func (p params) int(name string) (int64, bool) {
	n, err := strconv.ParseInt(p.str(name), 10, 64)
	return n, err == nil
}

// object decodes a JSON-valued parameter into v; false when it is absent.
func (p params) object(name string, v any) (bool, error) {
	raw, ok := p[name]
	if !ok || string(raw) == "null" || string(raw) == `""` {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("can't parse %s JSON object", name)
	}
	return true, nil
}

// record is the parameters as a test reads them.
func (p params) record() map[string]any {
	out := map[string]any{}
	for k, raw := range p {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			v = string(raw)
		}
		if s, ok := v.(string); ok && jsonValued[k] {
			var inner any
			if json.Unmarshal([]byte(s), &inner) == nil {
				v = inner
			}
		}
		out[k] = v
	}
	return out
}

// Calls returns the calls of method received so far ("" for all), in
// order.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range channeltest.Named(s.calls, method, func(c *Call) string { return c.Method }) {
		out = append(out, *c)
	}
	return out
}

// RateLimit makes the next len(retryAfter) calls of method answer 429
// Too Many Requests, each with its retry_after in seconds.
func (s *Server) RateLimit(method string, retryAfter ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.rate[method] = append(s.faults.rate[method], retryAfter...)
}

// Down makes the next n calls of method meet a proxy whose Bot API is
// down: 502 Bad Gateway, in HTML.
func (s *Server) Down(method string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.down[method] += n
}

// Delay makes every call of method take d to be answered, as a Bot API
// across a network does (d = 0 ends it).
func (s *Server) Delay(method string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.delay[method] = d
}

// Silence makes the next n long polls go silent: no answer, ever, until
// the client gives up on them.
func (s *Server) Silence(n int) { s.Stall("getUpdates", n) }

// Stall makes the next n calls of method go silent, as Silence does polls.
func (s *Server) Stall(method string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.stall[method] += n
}

// KeepUpdates makes getUpdates ignore what offsets confirm while on, as
// if the bot died before its next poll reached Telegram: the next
// poller from offset 0 gets those updates again.
func (s *Server) KeepUpdates(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.keep = on
}

// EchoToken makes the 502 page of Down name the URL asked for, the bot
// token in its path, as some proxies' error pages do.
func (s *Server) EchoToken() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.echo = true
}
