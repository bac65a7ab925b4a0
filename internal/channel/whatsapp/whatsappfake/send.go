package whatsappfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// outMessage is the Cloud API's message, as the fake reads it: unknown
// fields are refused, as Meta refuses an unexpected key.
type outMessage struct {
	MessagingProduct string `json:"messaging_product"`
	RecipientType    string `json:"recipient_type"`
	To               string `json:"to"`
	Type             string `json:"type"`
	Context          *struct {
		MessageID string `json:"message_id"`
	} `json:"context"`
	Text *struct {
		Body       string `json:"body"`
		PreviewURL bool   `json:"preview_url"`
	} `json:"text"`
	Interactive *Interactive `json:"interactive"`
}

// Interactive is an interactive message's content.
type Interactive struct {
	Type   string `json:"type"`
	Header *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"header"`
	Body struct {
		Text string `json:"text"`
	} `json:"body"`
	Footer *struct {
		Text string `json:"text"`
	} `json:"footer"`
	Action struct {
		Button  string `json:"button"`
		Buttons []struct {
			Type  string `json:"type"`
			Reply Choice `json:"reply"`
		} `json:"buttons"`
		Sections []struct {
			Title string   `json:"title"`
			Rows  []Choice `json:"rows"`
		} `json:"sections"`
	} `json:"action"`
}

// Choice is a reply button or a list row.
type Choice struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// Text is the message's text: a text message's body, an interactive
// message's body.
func (m Sent) Text() string {
	switch {
	case m.msg.Text != nil:
		return m.msg.Text.Body
	case m.msg.Interactive != nil:
		return m.msg.Interactive.Body.Text
	}
	return ""
}

// Interactive is the message's interactive content; nil for text.
func (m Sent) Interactive() *Interactive { return m.msg.Interactive }

// Choices are the message's reply buttons or list rows, in order.
func (m Sent) Choices() []Choice {
	ix := m.msg.Interactive
	if ix == nil {
		return nil
	}
	var out []Choice
	for _, b := range ix.Action.Buttons {
		out = append(out, b.Reply)
	}
	for _, s := range ix.Action.Sections {
		out = append(out, s.Rows...)
	}
	return out
}

// send takes POST /<version>/<phone number id>/messages.
func (s *Server) send(w http.ResponseWriter, r *http.Request, version string) int {
	data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return graphError(w, http.StatusBadRequest, 100, 0, "could not read the request")
	}
	var m outMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return cloudError(w, http.StatusBadRequest, 100, "Invalid parameter", "the request is not a message: "+err.Error())
	}
	if problem := check(m); problem != "" {
		return cloudError(w, http.StatusBadRequest, 100, "Invalid parameter", problem)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &s.faults
	switch {
	case take(&f.down):
		return graphError(w, http.StatusServiceUnavailable, 2, 0, "Service temporarily unavailable")
	case take(&f.limited):
		w.Header().Set("Retry-After", strconv.Itoa(f.retryAfter))
		return cloudError(w, http.StatusTooManyRequests, 130429, "Rate limit hit", "Cloud API message throughput has been reached.")
	}
	closed := f.window && time.Since(s.heard[m.To]) > 24*time.Hour
	if closed && f.windowAtOnce {
		return cloudError(w, http.StatusBadRequest, 131047, "Re-engagement message",
			"Message failed to send because more than 24 hours have passed since the customer last replied to this number.")
	}
	s.nextID++
	id := fmt.Sprintf("wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI%06d", s.nextID)
	sent := &Sent{ID: id, To: m.To, Type: m.Type, Version: version, JSON: json.RawMessage(data), At: time.Now(), msg: m}
	if m.Context != nil {
		sent.ReplyTo = m.Context.MessageID
	}
	if closed {
		sent.Failed = 131047
		go s.failed(id, m.To, 131047, "Message failed to send because more than 24 hours have passed since the customer last replied to this number.")
	}
	s.sent = append(s.sent, sent)
	return writeJSON(w, http.StatusOK, map[string]any{"messaging_product": "whatsapp",
		"contacts": []map[string]string{{"input": m.To, "wa_id": strings.TrimPrefix(m.To, "+")}},
		"messages": []map[string]string{{"id": id}}})
}

// The Cloud API's limits, in characters.
const (
	maxText        = 4096
	maxButtonBody  = 1024
	maxButtonTitle = 20
	maxButtonID    = 256
	maxRows        = 10
	maxRowTitle    = 24
	maxRowDesc     = 72
	maxRowID       = 200
	maxListButton  = 20
	maxHeaderText  = 60
	maxFooterText  = 60
)

// check says what is wrong with m, as Meta's error details would; ""
// when nothing is.
func check(m outMessage) string {
	switch {
	case m.MessagingProduct != "whatsapp":
		return "messaging_product must be whatsapp"
	case strings.Trim(strings.TrimPrefix(m.To, "+"), "0123456789") != "" || m.To == "":
		return "to must be a phone number"
	case m.Context != nil && m.Context.MessageID == "":
		return "context.message_id is required"
	}
	switch m.Type {
	case "text":
		if m.Text == nil || m.Text.Body == "" || m.Interactive != nil {
			return "text.body is required"
		}
		return within("text.body", m.Text.Body, maxText)
	case "interactive":
		if m.Interactive == nil || m.Text != nil {
			return "interactive is required"
		}
		return checkInteractive(m.Interactive)
	}
	return "type " + m.Type + " is not supported here"
}

func within(field, s string, n int) string {
	if c := utf8.RuneCountInString(s); c > n {
		return fmt.Sprintf("%s must be at most %d characters, got %d", field, n, c)
	}
	return ""
}

func checkInteractive(ix *Interactive) string {
	if ix.Body.Text == "" {
		return "interactive.body.text is required"
	}
	if ix.Header != nil {
		if p := within("interactive.header.text", ix.Header.Text, maxHeaderText); p != "" || ix.Header.Type != "text" {
			return p + " (a text header)"
		}
	}
	if ix.Footer != nil {
		if p := within("interactive.footer.text", ix.Footer.Text, maxFooterText); p != "" {
			return p
		}
	}
	switch ix.Type {
	case "button":
		return checkButtons(ix)
	case "list":
		return checkList(ix)
	}
	return "interactive.type " + ix.Type + " is not supported here"
}

func checkButtons(ix *Interactive) string {
	a := ix.Action
	if n := len(a.Buttons); n < 1 || n > 3 || len(a.Sections) > 0 || a.Button != "" {
		return fmt.Sprintf("interactive.action.buttons must hold 1 to 3 reply buttons, got %d", n)
	}
	if p := within("interactive.body.text", ix.Body.Text, maxButtonBody); p != "" {
		return p
	}
	ids, titles := map[string]bool{}, map[string]bool{}
	for i, b := range a.Buttons {
		f := fmt.Sprintf("interactive.action.buttons[%d]", i)
		switch {
		case b.Type != "reply":
			return f + ".type must be reply"
		case b.Reply.ID == "" || b.Reply.Title == "":
			return f + ".reply needs an id and a title"
		case ids[b.Reply.ID] || titles[strings.ToLower(b.Reply.Title)]:
			return f + ": button ids and titles must be unique"
		}
		ids[b.Reply.ID], titles[strings.ToLower(b.Reply.Title)] = true, true
		if p := within(f+".reply.title", b.Reply.Title, maxButtonTitle) + within(f+".reply.id", b.Reply.ID, maxButtonID); p != "" {
			return p
		}
	}
	return ""
}

func checkList(ix *Interactive) string {
	a := ix.Action
	if a.Button == "" || len(a.Buttons) > 0 {
		return "interactive.action.button is required for a list"
	}
	if p := within("interactive.action.button", a.Button, maxListButton) + within("interactive.body.text", ix.Body.Text, maxText); p != "" {
		return p
	}
	rows, ids := 0, map[string]bool{}
	for i, sec := range a.Sections {
		if len(a.Sections) > 1 && sec.Title == "" {
			return fmt.Sprintf("interactive.action.sections[%d].title is required with several sections", i)
		}
		for j, r := range sec.Rows {
			f := fmt.Sprintf("interactive.action.sections[%d].rows[%d]", i, j)
			if r.ID == "" || r.Title == "" || ids[r.ID] {
				return f + " needs a unique id and a title"
			}
			ids[r.ID] = true
			if p := within(f+".title", r.Title, maxRowTitle) + within(f+".description", r.Description, maxRowDesc) + within(f+".id", r.ID, maxRowID); p != "" {
				return p
			}
			rows++
		}
	}
	if rows < 1 || rows > maxRows {
		return fmt.Sprintf("a list holds 1 to %d rows, got %d", maxRows, rows)
	}
	return ""
}
