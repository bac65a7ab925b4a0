package telegramfake

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// What the people in the chat do: press buttons, reply, delete messages;
// and what a test reads back.

// Press presses the button labelled label on message id as user u, as it
// shows now, and returns the callback query's id. A label that the
// message does not show is an error naming what it shows.
func (s *Server) Press(u User, id int, label string) (string, error) {
	s.mu.Lock()
	m := s.messageByIDLocked(id)
	s.mu.Unlock()
	if m == nil {
		return "", fmt.Errorf("no message %d", id)
	}
	var labels []string
	for _, row := range m.Keyboard {
		for _, b := range row {
			if b.Text == label {
				return s.PressData(u, id, b.Data)
			}
			labels = append(labels, b.Text)
		}
	}
	return "", fmt.Errorf("message %d has no button %q; it shows %q", id, label, labels)
}

// PressData sends a callback query with data from message id as user u,
// whatever the message shows now: a press on a button of an older
// rendering, or a forged one.
func (s *Server) PressData(u User, id int, data string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messageByIDLocked(id)
	if m == nil || m.Deleted {
		return "", fmt.Errorf("no message %d to press on", id)
	}
	s.nextQ++
	q := &query{id: fmt.Sprintf("%d%06d", u.ID, s.nextQ)}
	s.queries[q.id] = q
	s.addUpdateLocked("callback_query", map[string]any{"id": q.id, "from": u, "message": s.wireLocked(m, false),
		"chat_instance": fmt.Sprintf("ci%d", m.Chat), "data": data})
	return q.id, nil
}

// Answer waits up to limit for the bot to answer callback query id, and
// returns the text it answered with.
func (s *Server) Answer(limit time.Duration, id string) (string, error) {
	var text string
	_, ok := s.wait(limit, func() bool {
		q := s.queries[id]
		if q != nil && q.answered {
			text = q.text
		}
		return q != nil && q.answered
	})
	if !ok {
		return "", fmt.Errorf("callback query %s was not answered within %s", id, limit)
	}
	return text, nil
}

// Tap presses label on message id as u and waits for the callback answer.
func (s *Server) Tap(limit time.Duration, u User, id int, label string) (string, error) {
	q, err := s.Press(u, id, label)
	if err != nil {
		return "", err
	}
	return s.Answer(limit, q)
}

// Reply sends text as user u in message to's chat, as a reply to it, and
// returns the new message's id.
func (s *Server) Reply(u User, to int, text string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	parent := s.messageByIDLocked(to)
	if parent == nil || parent.Deleted {
		return 0, fmt.Errorf("no message %d to reply to", to)
	}
	m := &Message{ID: len(s.messages) + 1, Chat: parent.Chat, From: u, Text: text, Sent: text, ReplyTo: to, Date: time.Now()}
	s.messages = append(s.messages, m)
	s.addUpdateLocked("message", s.wireLocked(m, true))
	return m.ID, nil
}

// Inject queues an update of kind whose body is given as it is: what a
// Bot API of another version, or a broken proxy, might send. It returns
// the update's id.
func (s *Server) Inject(kind string, body json.RawMessage) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUpdateLocked(kind, body)
}

// Delete deletes message id, as a person who deletes it for everyone.
func (s *Server) Delete(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.messageByIDLocked(id); m != nil {
		m.Deleted = true
		s.bumpLocked()
	}
}

func (s *Server) messageByIDLocked(id int) *Message {
	if id < 1 || id > len(s.messages) {
		return nil
	}
	return s.messages[id-1]
}

// Messages returns a copy of every message in every chat, in order.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.messagesLocked()
}

func (s *Server) messagesLocked() []Message {
	out := make([]Message, len(s.messages))
	for i, m := range s.messages {
		out[i] = *m
		out[i].Edits = append([]Edit(nil), m.Edits...)
	}
	return out
}

// Message returns message id as it stands.
func (s *Server) Message(id int) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.messageByIDLocked(id); m != nil {
		c := *m
		c.Edits = append([]Edit(nil), m.Edits...)
		return c, true
	}
	return Message{}, false
}

// WaitFor waits up to limit until cond holds of the messages, and returns
// them; ok is false when it never did.
func (s *Server) WaitFor(limit time.Duration, cond func([]Message) bool) ([]Message, bool) {
	var msgs []Message
	_, ok := s.wait(limit, func() bool {
		msgs = s.messagesLocked()
		return cond(msgs)
	})
	return msgs, ok
}

// WaitMessage waits up to limit for a message that cond accepts, and
// returns the first; ok is false when none came.
func (s *Server) WaitMessage(limit time.Duration, cond func(Message) bool) (Message, bool) {
	return channeltest.First(s.WaitFor, limit, cond)
}

// Dump renders every message, for a test's failure message.
func (s *Server) Dump() string {
	var b strings.Builder
	for _, m := range s.Messages() {
		b.WriteString(Render(m) + "\n---\n")
	}
	return b.String()
}

// WaitAnswered waits up to limit until the bot has answered callback
// query id n times (a press delivered again is answered again, and
// refused by Telegram); false when it did not.
func (s *Server) WaitAnswered(limit time.Duration, id string, n int) bool {
	_, ok := s.WaitCalls(limit, func(cs []Call) bool {
		got := 0
		for _, c := range cs {
			if c.Method == "answerCallbackQuery" && c.Params["callback_query_id"] == id {
				got++
			}
		}
		return got >= n
	})
	return ok
}

// WaitCalls waits up to limit until cond holds of the calls received.
func (s *Server) WaitCalls(limit time.Duration, cond func([]Call) bool) ([]Call, bool) {
	var calls []Call
	_, ok := s.wait(limit, func() bool {
		calls = calls[:0]
		for _, c := range s.calls {
			calls = append(calls, *c)
		}
		return cond(calls)
	})
	return calls, ok
}

// wait runs cond under the lock at every change until it holds, or
// limit passes.
func (s *Server) wait(limit time.Duration, cond func() bool) (struct{}, bool) {
	deadline := time.After(limit)
	for {
		s.mu.Lock()
		ok := cond()
		changed := s.changed
		s.mu.Unlock()
		if ok {
			return struct{}{}, true
		}
		select {
		case <-changed:
		case <-deadline:
			return struct{}{}, false
		}
	}
}

// Render shows a message as a person sees it: its text, then its
// keyboard, one row per line, each button in brackets.
func Render(m Message) string {
	var b strings.Builder
	if m.Deleted {
		b.WriteString("(deleted) ")
	}
	b.WriteString(m.Text)
	for _, row := range m.Keyboard {
		b.WriteString("\n")
		for i, btn := range row {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString("[ " + btn.Text + " ]")
		}
	}
	if m.ForceReply {
		b.WriteString("\n(reply to this message)")
	}
	return b.String()
}
