package whatsapp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/channel"
)

// The webhook, as askuser serve mounts it at /channels/whatsapp, outside
// the inbox's token: WhatsApp guards it with the verify token (GET, the
// subscription) and the app secret's signature (POST, every delivery).

// maxWebhookBody is the most a delivery may hold. It is checked before
// the signature: a larger body is refused unread.
const maxWebhookBody = 1 << 20

// signatureHeader is the header Meta signs every delivery in.
const signatureHeader = "X-Hub-Signature-256"

// The defaults of what the webhook gives a delivery before its signature
// is checked (channel.WebhookLimits): Meta sends a delivery of a few KB
// at once, so a body not read within 5 s is not Meta's, and 8 bodies read
// at once are plenty for one number's messages.
const (
	webhookBodies     = 8
	webhookWaitSlot   = 2 * time.Second
	webhookReadWithin = 5 * time.Second
)

// takeTimeout bounds the work on one delivery, which goes on when
// WhatsApp hangs up, so that nothing is left half done.
const takeTimeout = 15 * time.Second

func (c *Channel) serveHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	switch r.Method {
	case http.MethodGet:
		c.subscribe(w, r)
	case http.MethodPost:
		c.deliver(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "GET or POST", http.StatusMethodNotAllowed)
	}
}

// subscribe answers WhatsApp's verification: hub.mode=subscribe with the
// verify token gets hub.challenge back; anything else 403.
func (c *Channel) subscribe(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("hub.mode") != "subscribe" || !sameString(q.Get("hub.verify_token"), c.verify) {
		http.Error(w, "wrong verify token", http.StatusForbidden)
		return
	}
	challenge := q.Get("hub.challenge")
	if challenge == "" || len(challenge) > 256 || strings.ContainsAny(challenge, "<>&\"'\r\n") {
		http.Error(w, "no usable hub.challenge", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, challenge)
}

// deliver takes one POST: the signature header and the size first, then
// the body (within the webhook's limits), then the signature, then what
// it holds.
func (c *Channel) deliver(w http.ResponseWriter, r *http.Request) {
	if !signatureShape(r.Header.Get(signatureHeader)) {
		w.Header().Set("Connection", "close") // nothing more of it is read
		http.Error(w, "missing or wrong "+signatureHeader, http.StatusUnauthorized)
		return
	}
	body, release, ok := c.bodies.Read(w, r)
	if !ok {
		return
	}
	defer release()
	if !c.signed(r.Header.Get(signatureHeader), body) {
		http.Error(w, "missing or wrong "+signatureHeader, http.StatusUnauthorized)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), takeTimeout)
	defer cancel()
	if !c.handle(ctx, body) {
		http.Error(w, "not taken yet: deliver it again", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// signatureShape reports whether header can be a signature: "sha256="
// and 64 hexadecimal digits. Anything else is refused before the body is
// read.
func signatureShape(header string) bool {
	got, ok := strings.CutPrefix(strings.TrimSpace(header), "sha256=")
	if !ok || len(got) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(got)
	return err == nil
}

// signed checks X-Hub-Signature-256: "sha256=" and the hex HMAC-SHA256
// of the body under the app secret, compared in constant time.
func (c *Channel) signed(header string, body []byte) bool {
	got, ok := strings.CutPrefix(strings.TrimSpace(header), "sha256=")
	if !ok || c.secret == "" {
		return false
	}
	sig, err := hex.DecodeString(got)
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, []byte(c.secret))
	mac.Write(body)
	return hmac.Equal(sig, mac.Sum(nil))
}

func sameString(a, b string) bool {
	return b != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// payload is a webhook delivery of the messages field, as much of it as
// askuser reads.
type payload struct {
	Object string `json:"object"`
	Entry  []struct {
		Changes []struct {
			Field string `json:"field"`
			Value struct {
				Metadata struct {
					PhoneNumberID string `json:"phone_number_id"`
				} `json:"metadata"`
				Messages []inbound `json:"messages"`
				Statuses []status  `json:"statuses"`
			} `json:"value"`
		} `json:"changes"`
	} `json:"entry"`
}

// inbound is a message a person sent.
type inbound struct {
	From string `json:"from"`
	ID   string `json:"id"`
	// Timestamp is when it was written, in Unix seconds, as text.
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Context   *struct {
		ID string `json:"id"`
	} `json:"context"`
	Text *struct {
		Body string `json:"body"`
	} `json:"text"`
	Interactive *struct {
		Type        string `json:"type"`
		ButtonReply *struct {
			ID string `json:"id"`
		} `json:"button_reply"`
		ListReply *struct {
			ID string `json:"id"`
		} `json:"list_reply"`
	} `json:"interactive"`
}

// status is what became of a message askuser sent.
type status struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Errors []struct {
		Code  int    `json:"code"`
		Title string `json:"title"`
	} `json:"errors"`
}

// handle takes a signed delivery. It reports false when a message in it
// could not be taken now and WhatsApp is to deliver it again; whatever
// else the body holds (status updates, strangers' messages, another
// number's, JSON of another shape or none) is answered as taken.
func (c *Channel) handle(ctx context.Context, body []byte) bool {
	var p payload
	if json.Unmarshal(body, &p) != nil || p.Object != "whatsapp_business_account" {
		return true
	}
	ok := true
	for _, e := range p.Entry {
		for _, ch := range e.Changes {
			if ch.Field != "messages" || ch.Value.Metadata.PhoneNumberID != c.api.phoneID {
				continue
			}
			for _, s := range ch.Value.Statuses {
				ok = c.status(ctx, s) && ok
			}
			for _, m := range ch.Value.Messages {
				ok = c.take(ctx, m) && ok
			}
		}
	}
	return ok
}

// webhookLimits are lim with askuser's defaults in its zero fields.
func webhookLimits(lim channel.WebhookLimits) channel.WebhookLimits {
	lim.Signature, lim.MaxBody = signatureHeader, maxWebhookBody
	if lim.Bodies <= 0 {
		lim.Bodies = webhookBodies
	}
	if lim.WaitSlot <= 0 {
		lim.WaitSlot = webhookWaitSlot
	}
	if lim.ReadWithin <= 0 {
		lim.ReadWithin = webhookReadWithin
	}
	return lim
}
