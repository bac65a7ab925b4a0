package whatsapp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// state is what the channel keeps of a set, through the Host (Save), so
// a restarted askuser serve goes on where the last one stopped: which
// question is asked now, the message asking each, the answers so far,
// and the messages already taken.
type state struct {
	// Rev is the revision this state belongs to; a state of another
	// revision is started afresh.
	Rev int `json:"rev"`
	// Q is the question asked now; len(questions) once answered whole.
	Q int `json:"q"`
	// Msgs are the messages asking each question, by index (wamids).
	Msgs []string `json:"msgs,omitempty"`
	// SentAt is when the sending of the newest of them began: a typed
	// reply that quotes no message and was written before then does not
	// answer it.
	SentAt time.Time `json:"sent_at,omitzero"`
	// Answers are the answers to the questions before Q, and By who gave
	// them (E.164 digits).
	Answers []ask.Answer `json:"answers,omitempty"`
	By      string       `json:"by,omitempty"`
	// Seen are the ids of the last messages taken for the set, so a
	// redelivered one is dropped.
	Seen []string `json:"seen,omitempty"`
	// Refused says why WhatsApp would not deliver the question asked now
	// (outside the 24-hour window); it is sent again when the person
	// next writes.
	Refused string `json:"refused,omitempty"`
}

// maxSeen bounds the message ids a set remembers.
const maxSeen = 32

// loadState reads a saved state; anything unreadable is a fresh one.
func loadState(raw json.RawMessage) state {
	var st state
	if len(raw) > 0 && json.Unmarshal(raw, &st) == nil {
		return st
	}
	return state{}
}

func (c *Channel) save(ctx context.Context, h channel.Host, key string, st state) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return h.Save(ctx, key, b)
}

// seen notes a message id taken.
func (st *state) seen(id string) { st.Seen = channel.Remember(st.Seen, id, maxSeen) }

// asks returns the question whose message is id, or -1.
func (st state) asks(id string) int {
	if id == "" {
		return -1
	}
	return slices.Index(st.Msgs, id)
}

// ref is a set's message as a channel.Ref: the set's key, and the
// message that asked its first question, when one was delivered.
type ref struct {
	Key string `json:"key"`
	ID  string `json:"id,omitempty"`
}

func refOf(key, id string) channel.Ref {
	b, _ := json.Marshal(ref{Key: key, ID: id})
	return channel.Ref(b)
}

func readRef(r channel.Ref) ref {
	var x ref
	if len(r) > 0 {
		_ = json.Unmarshal(r, &x)
	}
	return x
}

// refID is the message a ref names; "" for none.
func refID(r channel.Ref) string { return readRef(r).ID }

// keyLocks serialise the work on one set in this process: a set's state
// is read, changed and saved whole. Only askuser serve receives
// WhatsApp's webhook, so no other process changes it.
type keyLocks struct {
	mu sync.Mutex
	m  map[string]*sync.Mutex
}

func (k *keyLocks) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*sync.Mutex{}
	}
	l := k.m[key]
	if l == nil {
		l = &sync.Mutex{}
		k.m[key] = l
	}
	k.mu.Unlock()
	l.Lock()
	return l.Unlock
}
