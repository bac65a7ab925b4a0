package slackfake

import (
	"fmt"
	"strings"
	"time"
)

// What a test waits for, and says when it does not come.

// WaitMessage waits for a message, not deleted, that cond accepts.
func (s *Server) WaitMessage(limit time.Duration, cond func(Message) bool) (Message, bool) {
	var found Message
	ok := s.WaitFor(limit, func(s *Server) bool {
		for _, m := range s.Messages() {
			if !m.Deleted && cond(m) {
				found = m
				return true
			}
		}
		return false
	})
	return found, ok
}

// Showing accepts a message a person reads text in.
func Showing(text string) func(Message) bool {
	return func(m Message) bool { return strings.Contains(m.View(), text) }
}

// UpdatedTo accepts message ts once an update made it show text.
func UpdatedTo(ts, text string) func(Message) bool {
	return func(m Message) bool { return m.TS == ts && m.Updates > 0 && strings.Contains(m.View(), text) }
}

// WaitTold waits until user was told text, privately.
func (s *Server) WaitTold(limit time.Duration, user, text string) bool {
	return s.WaitFor(limit, func(s *Server) bool {
		for _, e := range s.Ephemerals() {
			if e.User == user && strings.Contains(e.Text, text) {
				return true
			}
		}
		return false
	})
}

// WaitConnections waits until n Socket Mode connections were opened and
// one is open.
func (s *Server) WaitConnections(limit time.Duration, n int) bool {
	return s.WaitFor(limit, func(s *Server) bool {
		opened, open := s.Connections()
		return opened >= n && open >= 1
	})
}

// Acked waits for envelope e's ack and says whether it came in Slack's
// time; its error says what went wrong.
func (s *Server) Acked(limit time.Duration, e *Envelope) (Envelope, error) {
	got, ok := s.WaitAck(limit, e)
	if ok && s.AckedInTime(got) {
		return got, nil
	}
	opened, open := s.Connections()
	return got, fmt.Errorf("slackfake: envelope %s (on connection %d of %d opened, %d open) was not acknowledged in time: sent %v, acknowledged %v",
		e.ID, got.Conn, opened, open, got.Sent.Format(time.StampMicro), got.AckedAt.Format(time.StampMicro))
}

// Views is every message as a person reads it, for a test's failure.
func (s *Server) Views() string {
	var b strings.Builder
	for _, m := range s.Messages() {
		fmt.Fprintf(&b, "--- %s (thread %q, deleted %v)\n%s", m.TS, m.Thread, m.Deleted, m.View())
	}
	return b.String()
}
