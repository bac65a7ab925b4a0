package fakeprovider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// sse writes a server-sent event stream, flushing after every event so the
// client sees deltas as they are written.
type sse struct {
	w    http.ResponseWriter
	done <-chan struct{} // closed when the client goes away
	// gone is set once the connection was dropped or a write failed; later
	// writes are no-ops.
	gone bool
}

func newSSE(w http.ResponseWriter, r *http.Request, requestIDHeader string, n int) *sse {
	h := w.Header()
	h.Set("content-type", "text/event-stream; charset=utf-8")
	h.Set("cache-control", "no-cache")
	if requestIDHeader != "" {
		h.Set(requestIDHeader, requestID(n))
	}
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, done: r.Context().Done()}
}

func requestID(n int) string {
	return fmt.Sprintf("req_fake_%d", n)
}

// event writes one event; an empty name writes a data-only event, as
// OpenAI does.
func (s *sse) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic("fakeprovider: cannot encode event: " + err.Error()) // the package's own values
	}
	if name != "" {
		s.raw("event: " + name + "\ndata: " + string(b) + "\n\n")
		return
	}
	s.raw("data: " + string(b) + "\n\n")
}

// raw writes text as is.
func (s *sse) raw(text string) {
	if s.gone {
		return
	}
	if _, err := s.w.Write([]byte(text)); err != nil {
		s.gone = true
		return
	}
	if err := http.NewResponseController(s.w).Flush(); err != nil {
		s.gone = true
	}
}

// drop closes the connection under the stream without finishing the
// response, as a crashed server or a cut network would: the client reads
// what was flushed, then an unexpected EOF.
func (s *sse) drop() {
	if s.gone {
		return
	}
	s.gone = true
	conn, _, err := http.NewResponseController(s.w).Hijack()
	if err != nil {
		panic("fakeprovider: cannot drop the connection: " + err.Error()) // httptest serves HTTP/1.1, which can
	}
	conn.Close()
}

// hang holds the stream open until the client goes away (Server.Close
// closes client connections first, so it cannot outlive the server).
func (s *sse) hang() {
	<-s.done
	s.gone = true
}

// playText streams t.Text in about three pieces through piece, then plays
// the faults that come with text: EndEarly, Hang and DropAfterText after
// the first piece, an ErrorEvent (sent through errorEvent with the turn's
// message) after the whole text. It reports whether the stream goes on.
func playText(sw *sse, t Turn, piece func(string), errorEvent func(msg string)) bool {
	for _, p := range split(t.Text, 3) {
		piece(p)
		if t.DropAfterText || t.Hang || t.EndEarly {
			break
		}
	}
	switch {
	case t.EndEarly:
		return false
	case t.Hang:
		sw.hang()
		return false
	case t.DropAfterText:
		sw.drop()
		return false
	case t.ErrorEvent != "":
		msg := t.ErrorMessage
		if msg == "" {
			msg = "fakeprovider: scripted " + t.ErrorEvent + " event"
		}
		errorEvent(msg)
		return false
	}
	return true
}

// split cuts s into up to n pieces of nearly equal length, at rune
// boundaries (a piece that ends inside a UTF-8 sequence would not survive
// JSON encoding). An empty s gives no pieces.
func split(s string, n int) []string {
	runes := utf8.RuneCountInString(s)
	if runes == 0 {
		return nil
	}
	n = min(n, runes)
	pieces := make([]string, 0, n)
	for i := range n {
		size := runes / n
		if i < runes%n {
			size++
		}
		end := 0
		for range size {
			_, w := utf8.DecodeRuneInString(s[end:])
			end += w
		}
		pieces = append(pieces, s[:end])
		s = s[end:]
	}
	return pieces
}
