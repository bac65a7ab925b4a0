package whatsappfake

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// The people on WhatsApp: what they do reaches askuser as Meta delivers
// it, a signed POST of the messages field to the webhook, delivered again
// until it gets 200 (Meta keeps trying for days; the fake for Patience).

// Patience is how long a delivery is tried again; RetryEvery how often.
var (
	Patience   = 20 * time.Second
	RetryEvery = 100 * time.Millisecond
)

// Delivery is what became of one delivery: the message's id, the status
// of each attempt, in order (0 when askuser could not be reached).
type Delivery struct {
	ID       string
	Statuses []int
}

// Final is the last attempt's status.
func (d Delivery) Final() int {
	if len(d.Statuses) == 0 {
		return 0
	}
	return d.Statuses[len(d.Statuses)-1]
}

// Tap taps choice i (a reply button, or a list row) of message m, as from.
func (s *Server) Tap(from string, m Sent, i int) (Delivery, error) {
	cs := m.Choices()
	if i < 0 || i >= len(cs) {
		return Delivery{}, fmt.Errorf("message %s has %d choices, not %d", m.ID, len(cs), i+1)
	}
	ix := map[string]any{"type": "button_reply", "button_reply": map[string]string{"id": cs[i].ID, "title": cs[i].Title}}
	if m.Interactive().Type == "list" {
		ix = map[string]any{"type": "list_reply", "list_reply": cs[i]}
	}
	return s.write(from, map[string]any{"type": "interactive", "interactive": ix,
		"context": map[string]string{"from": DisplayNumber, "id": m.ID}})
}

// Type sends text as from, quoting the message with id quoting ("" for
// none: typed straight into the chat).
func (s *Server) Type(from, text, quoting string) (Delivery, error) {
	msg := map[string]any{"type": "text", "text": map[string]string{"body": text}}
	if quoting != "" {
		msg["context"] = map[string]string{"from": DisplayNumber, "id": quoting}
	}
	return s.write(from, msg)
}

// Unsupported sends what the Cloud API cannot show, as from: a message the
// person deleted arrives so (code 131051).
func (s *Server) Unsupported(from string) (Delivery, error) {
	return s.write(from, map[string]any{"type": "unsupported",
		"errors": []map[string]any{{"code": 131051, "title": "Message type unknown", "message": "Message type unknown",
			"error_data": map[string]string{"details": "Message type is currently not supported."}}}})
}

// Written is text typed as from now, quoting the message with id quoting
// ("" for none), and not delivered yet: the body Meta will deliver, as a
// phone that was offline, or a webhook that was down, leaves it. Deliver
// (or Post) delivers it, as often as a test likes, stamped when it was
// written.
func (s *Server) Written(from, text, quoting string) (body []byte, id string) {
	msg := map[string]any{"type": "text", "text": map[string]string{"body": text}}
	if quoting != "" {
		msg["context"] = map[string]string{"from": DisplayNumber, "id": quoting}
	}
	return s.compose(from, msg)
}

// write is a message from a person: the window opens, and the message is
// delivered.
func (s *Server) write(from string, msg map[string]any) (Delivery, error) {
	body, id := s.compose(from, msg)
	d, err := s.Deliver(body)
	d.ID = id
	return d, err
}

// compose is the delivery of msg from a person, written now: the window
// opens, and the message gets its id and timestamp.
func (s *Server) compose(from string, msg map[string]any) ([]byte, string) {
	s.mu.Lock()
	s.heard[from] = time.Now()
	s.nextID++
	id := fmt.Sprintf("wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQ%06d", s.nextID)
	phoneID := s.PhoneID
	s.mu.Unlock()
	msg["from"], msg["id"], msg["timestamp"] = from, id, strconv.FormatInt(time.Now().Unix(), 10)
	value := map[string]any{"messaging_product": "whatsapp",
		"metadata": map[string]string{"display_phone_number": DisplayNumber, "phone_number_id": phoneID},
		"contacts": []map[string]any{{"profile": map[string]string{"name": "Person " + from}, "wa_id": from}},
		"messages": []any{msg}}
	return Envelope(value), id
}

// failed delivers the status of a message WhatsApp did not deliver.
func (s *Server) failed(id, to string, code int, details string) {
	value := map[string]any{"messaging_product": "whatsapp",
		"metadata": map[string]string{"display_phone_number": DisplayNumber, "phone_number_id": s.PhoneID},
		"statuses": []map[string]any{{"id": id, "status": "failed", "timestamp": strconv.FormatInt(time.Now().Unix(), 10),
			"recipient_id": to, "errors": []map[string]any{{"code": code, "title": "Re-engagement message", "message": "Re-engagement message",
				"error_data": map[string]string{"details": details}}}}}}
	_, _ = s.Deliver(Envelope(value))
}

// Status delivers a status update of message id ("sent", "delivered",
// "read").
func (s *Server) Status(id, to, status string) (Delivery, error) {
	value := map[string]any{"messaging_product": "whatsapp",
		"metadata": map[string]string{"display_phone_number": DisplayNumber, "phone_number_id": s.PhoneID},
		"statuses": []map[string]any{{"id": id, "status": status, "timestamp": strconv.FormatInt(time.Now().Unix(), 10), "recipient_id": to}}}
	return s.Deliver(Envelope(value))
}

// Envelope wraps a change's value in the webhook's envelope.
func Envelope(value any) []byte {
	b, _ := json.Marshal(map[string]any{"object": "whatsapp_business_account", "entry": []any{map[string]any{
		"id": "102290129340398", "changes": []any{map[string]any{"field": "messages", "value": value}}}}})
	return b
}

// Sign is the X-Hub-Signature-256 of body under the app secret.
func (s *Server) Sign(body []byte) string {
	mac := hmac.New(sha256.New, []byte(s.AppSecret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Deliver posts body, signed, to the webhook, and again until it gets 200
// or Patience runs out, as Meta does.
func (s *Server) Deliver(body []byte) (Delivery, error) {
	var d Delivery
	deadline := time.Now().Add(Patience)
	for {
		status, err := s.Post(body, s.Sign(body))
		d.Statuses = append(d.Statuses, status)
		if err == nil && status == http.StatusOK {
			return d, nil
		}
		if time.Now().After(deadline) {
			return d, fmt.Errorf("webhook delivery not taken after %d attempts (last status %d, %v)", len(d.Statuses), status, err)
		}
		time.Sleep(RetryEvery)
	}
}

// Post posts body once with the signature header sig ("" for none) and
// returns the status; 0 with an error when askuser could not be reached.
func (s *Server) Post(body []byte, sig string) (int, error) {
	s.mu.Lock()
	hook := s.Webhook
	s.mu.Unlock()
	if hook == "" {
		return 0, errors.New("whatsappfake: no Webhook set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hook, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if sig != "" {
		req.Header.Set("X-Hub-Signature-256", sig)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// SetWebhook points deliveries at url.
func (s *Server) SetWebhook(url string) {
	s.mu.Lock()
	s.Webhook = url
	s.mu.Unlock()
}

// Verify makes the webhook subscription's GET, as Meta does when the
// webhook is set up, and returns the status and the body.
func (s *Server) Verify(mode, verifyToken, challenge string) (int, string, error) {
	s.mu.Lock()
	hook := s.Webhook
	s.mu.Unlock()
	q := url.Values{"hub.mode": {mode}, "hub.verify_token": {verifyToken}, "hub.challenge": {challenge}}
	resp, err := http.Get(hook + "?" + q.Encode())
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String(), nil
}
