package slackfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Socket Mode as Slack speaks it: apps.connections.open hands out a
// one-use URL; the app dials it and gets hello; Slack pings it, sends
// envelopes ({"envelope_id","type","payload",…}) and wants each
// acknowledged ({"envelope_id"}) within 3 s; it asks the app to reconnect
// with {"type":"disconnect"}. Each envelope goes to one connection.

// sockets is the Server's Socket Mode state, under Server.mu.
type sockets struct {
	tickets   map[string]bool
	conns     []*conn
	opened    int
	envelopes []*Envelope
	next      int
}

func (k *sockets) init() { k.tickets = map[string]bool{} }

// conn is one Socket Mode connection.
type conn struct {
	n      int
	ws     *websocket.Conn
	wmu    sync.Mutex // one writer at a time, as gorilla wants
	silent bool       // under Server.mu
	done   chan struct{}
}

func (c *conn) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return c.ws.WriteJSON(v)
}

// Envelope is one envelope Slack sent, and whether it was acknowledged.
type Envelope struct {
	ID      string
	Type    string
	Payload json.RawMessage
	Conn    int
	Sent    time.Time
	// AckedAt is when the app acknowledged it; zero until then.
	AckedAt time.Time
	Acks    int
}

// ticket issues a Socket Mode URL for one connection (under Server.mu).
func (k *sockets) ticket(base string) string {
	k.next++
	t := fmt.Sprintf("ticket-%d", k.next)
	k.tickets[t] = true
	return "ws" + strings.TrimPrefix(base, "http") + "/link/?ticket=" + t + "&app_id=" + AppID
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// link serves a Socket Mode connection.
func (s *Server) link(w http.ResponseWriter, r *http.Request) {
	t := r.URL.Query().Get("ticket")
	s.mu.Lock()
	ok := s.sock.tickets[t]
	delete(s.sock.tickets, t)
	s.mu.Unlock()
	if !ok {
		http.Error(w, "invalid or used ticket", http.StatusUnauthorized)
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws, done: make(chan struct{})}
	s.mu.Lock()
	s.sock.opened++
	c.n = s.sock.opened
	s.sock.conns = append(s.sock.conns, c)
	s.bumpLocked()
	s.mu.Unlock()
	defer s.drop(c)
	_ = c.write(map[string]any{"type": "hello", "num_connections": 1,
		"debug_info":      map[string]any{"host": "slackfake", "build_number": 1, "approximate_connection_time": 18060},
		"connection_info": map[string]any{"app_id": AppID}})
	go s.ping(c)
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var ack struct {
			ID string `json:"envelope_id"`
		}
		if json.Unmarshal(data, &ack) == nil && ack.ID != "" {
			s.acked(ack.ID)
		}
	}
}

func (s *Server) ping(c *conn) {
	t := time.NewTicker(s.cfg.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
		}
		s.mu.Lock()
		silent := c.silent
		s.mu.Unlock()
		if silent {
			continue
		}
		c.wmu.Lock()
		err := c.ws.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(time.Second))
		c.wmu.Unlock()
		if err != nil {
			return
		}
	}
}

func (s *Server) drop(c *conn) {
	c.ws.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	close(c.done)
	for i, x := range s.sock.conns {
		if x == c {
			s.sock.conns = append(s.sock.conns[:i], s.sock.conns[i+1:]...)
			break
		}
	}
	s.bumpLocked()
}

func (s *Server) acked(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.sock.envelopes {
		if e.ID == id {
			if e.AckedAt.IsZero() {
				e.AckedAt = time.Now()
			}
			e.Acks++
		}
	}
	s.bumpLocked()
}

// live is the newest connection that is not silent (under Server.mu).
func (s *Server) live() *conn {
	for i := len(s.sock.conns) - 1; i >= 0; i-- {
		if !s.sock.conns[i].silent {
			return s.sock.conns[i]
		}
	}
	return nil
}

// ErrNoConnection: no app holds a Socket Mode connection.
var ErrNoConnection = errors.New("slackfake: no Socket Mode connection")

// send sends an envelope of type typ on a live connection, waiting up to
// limit for one.
func (s *Server) send(limit time.Duration, typ string, payload json.RawMessage, id string) (*Envelope, error) {
	var c *conn
	if !s.WaitFor(limit, func(s *Server) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		c = s.live()
		return c != nil
	}) {
		return nil, ErrNoConnection
	}
	s.mu.Lock()
	if id == "" {
		s.sock.next++
		id = fmt.Sprintf("env-%d-%d", s.base, s.sock.next)
	}
	e := &Envelope{ID: id, Type: typ, Payload: payload, Conn: c.n, Sent: time.Now()}
	s.sock.envelopes = append(s.sock.envelopes, e)
	s.bumpLocked()
	s.mu.Unlock()
	err := c.write(map[string]any{"envelope_id": e.ID, "type": typ, "payload": payload, "accepts_response_payload": false,
		"retry_attempt": 0, "retry_reason": ""})
	return e, err
}

// Resend sends envelope e again, as Slack does when it doubts an ack
// arrived: the same envelope id and payload.
func (s *Server) Resend(limit time.Duration, e *Envelope) (*Envelope, error) {
	return s.send(limit, e.Type, e.Payload, e.ID)
}

// WaitAck waits until envelope e is acknowledged, or limit passes.
func (s *Server) WaitAck(limit time.Duration, e *Envelope) (Envelope, bool) {
	var got Envelope
	ok := s.WaitFor(limit, func(s *Server) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		got = *e
		return !e.AckedAt.IsZero()
	})
	return got, ok
}

// AckedInTime reports whether envelope e was acknowledged within Slack's
// limit (Config.AckWithin); Slack shows the person an error otherwise.
func (s *Server) AckedInTime(e Envelope) bool {
	return !e.AckedAt.IsZero() && e.AckedAt.Sub(e.Sent) <= s.cfg.AckWithin
}

// Envelopes are every envelope sent, in order.
func (s *Server) Envelopes() []Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Envelope, len(s.sock.envelopes))
	for i, e := range s.sock.envelopes {
		out[i] = *e
	}
	return out
}

// Connections is how many Socket Mode connections were opened, and how
// many are open now.
func (s *Server) Connections() (opened, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sock.opened, len(s.sock.conns)
}

// Disconnect asks every connected app to reconnect, as Slack does before
// it refreshes a connection, and closes the connections a second later.
func (s *Server) Disconnect() {
	for _, c := range s.current() {
		_ = c.write(map[string]any{"type": "disconnect", "reason": "refresh_requested", "debug_info": map[string]any{"host": "slackfake"}})
		time.AfterFunc(time.Second, func() { c.ws.Close() })
	}
}

// Drop closes every connection at once, without a word: a dropped
// network.
func (s *Server) Drop() {
	for _, c := range s.current() {
		_ = c.ws.UnderlyingConn().Close()
	}
}

// Silence makes every open connection go quiet, still open: no pings, no
// envelopes. An app has to notice on its own, and open another.
func (s *Server) Silence() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.sock.conns {
		c.silent = true
	}
	s.bumpLocked()
}

func (s *Server) current() []*conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*conn(nil), s.sock.conns...)
}
