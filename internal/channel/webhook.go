package channel

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"strconv"
	"time"
)

// WebhookLimits are what a webhook a platform calls (WhatsApp's, served
// by askuser serve outside the inbox's token) gives a request before its
// signature is checked: all that anyone who can reach the port can make
// askuser do. A delivery without its signature header is refused before
// its body is read; at most Bodies bodies are read (and held) at once,
// each within ReadWithin, so stalled connections cost a bounded amount of
// memory and a few seconds each.
type WebhookLimits struct {
	// Signature is the header every delivery is signed in.
	Signature string
	// MaxBody bounds a body: a larger one is refused (413) unread.
	MaxBody int64
	// Bodies bounds the bodies read and held at once; a delivery beyond
	// waits WaitSlot for one to end, then is refused (503, which the
	// platform delivers again).
	Bodies   int
	WaitSlot time.Duration
	// ReadWithin bounds the reading of a body: a delivery that stalls is
	// dropped.
	ReadWithin time.Duration
}

// WebhookBodies reads the deliveries of one webhook within its limits.
type WebhookBodies struct {
	lim   WebhookLimits
	slots chan struct{}
}

// NewWebhookBodies returns the reader of a webhook's deliveries.
func NewWebhookBodies(lim WebhookLimits) *WebhookBodies {
	return &WebhookBodies{lim: lim, slots: make(chan struct{}, max(lim.Bodies, 1))}
}

// Read reads r's body within the limits. When it cannot, it has answered
// w (401 unsigned, 413 too large, 503 too many at once, 408 too slow, 400
// unreadable) and ok is false. Otherwise release is to be called once the
// body is handled: the body's slot is held until then.
func (b *WebhookBodies) Read(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	// A refusal closes the connection: net/http would otherwise read on
	// (up to 256 KiB) to keep it, which is what is refused.
	w.Header().Set("Connection", "close")
	if r.Header.Get(b.lim.Signature) == "" {
		http.Error(w, "missing "+b.lim.Signature, http.StatusUnauthorized)
		return nil, nil, false
	}
	if r.ContentLength > b.lim.MaxBody {
		http.Error(w, "body over "+strconv.FormatInt(b.lim.MaxBody, 10)+" bytes", http.StatusRequestEntityTooLarge)
		return nil, nil, false
	}
	wait := time.NewTimer(b.lim.WaitSlot)
	defer wait.Stop()
	select {
	case b.slots <- struct{}{}:
	case <-wait.C:
		w.Header().Set("Retry-After", "5")
		http.Error(w, "too many deliveries at once: deliver it again", http.StatusServiceUnavailable)
		return nil, nil, false
	case <-r.Context().Done():
		return nil, nil, false
	}
	release = func() { <-b.slots }
	// Best effort: a ResponseWriter without deadlines (a test's recorder)
	// reads without one.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(b.lim.ReadWithin))
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, b.lim.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		http.Error(w, "body over "+strconv.FormatInt(b.lim.MaxBody, 10)+" bytes", http.StatusRequestEntityTooLarge)
	case errors.Is(err, os.ErrDeadlineExceeded):
		http.Error(w, "the body did not come within "+b.lim.ReadWithin.String(), http.StatusRequestTimeout)
	case err != nil:
		http.Error(w, "could not read the body", http.StatusBadRequest)
	default:
		w.Header().Del("Connection")
		return buf.Bytes(), release, true
	}
	release()
	return nil, nil, false
}
