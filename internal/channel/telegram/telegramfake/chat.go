package telegramfake

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"
	"unicode/utf16"
)

// chatState is a chat the bot is in.
type chatState struct {
	id     int64
	typ    string // "private" or "group"
	refuse string // a 403's description for every send, when set
}

// Message is a message in a chat as it stands now.
type Message struct {
	ID   int   `json:"message_id"`
	Chat int64 `json:"chat_id"`
	From User  `json:"from"`
	// Text is what a person reads: the text after entity parsing.
	Text string `json:"text"`
	// Sent is the text parameter as the bot sent it (HTML markup and all)
	// and ParseMode its parse_mode.
	Sent      string `json:"sent"`
	ParseMode string `json:"parse_mode,omitempty"`
	// Keyboard is the inline keyboard on the message now; nil for none.
	Keyboard [][]Button `json:"keyboard,omitempty"`
	// ForceReply is set when the message asked for a reply.
	ForceReply bool `json:"force_reply,omitempty"`
	// ReplyTo is the message this one replies to; 0 for none.
	ReplyTo int  `json:"reply_to,omitempty"`
	Deleted bool `json:"deleted,omitempty"`
	// Edits are the message's earlier states, oldest first: each time it
	// was edited, what it showed before.
	Edits []Edit    `json:"edits,omitempty"`
	Date  time.Time `json:"date"`
}

// Edit is a state of a message before an edit.
type Edit struct {
	Text     string     `json:"text"`
	Keyboard [][]Button `json:"keyboard,omitempty"`
}

// Button is an inline keyboard button with callback data.
type Button struct {
	Text string `json:"text"`
	Data string `json:"callback_data"`
}

// AddChat makes a chat the bot can write to: typ is "private" (a user's
// chat with the bot: its id is theirs) or "group".
func (s *Server) AddChat(id int64, typ string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats[id] = &chatState{id: id, typ: typ}
}

// Refuse makes every send to chat id fail with 403 Forbidden and the
// description given: "bot was blocked by the user", "bot can't initiate
// conversation with a user".
func (s *Server) Refuse(id int64, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.chats[id]; c != nil {
		c.refuse = description
	}
}

func (s *Server) getMe(params, *http.Request) (any, *apiError) { return s.Bot, nil }

// markup is a reply_markup parameter.
type markup struct {
	InlineKeyboard [][]map[string]any `json:"inline_keyboard"`
	ForceReply     bool               `json:"force_reply"`
}

// buttonActions are the fields of an inline button that say what it does:
// exactly one is allowed.
var buttonActions = []string{"url", "callback_data", "web_app", "login_url", "switch_inline_query",
	"switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay"}

// keyboard reads reply_markup: the inline keyboard (nil for none) and
// whether it forces a reply.
func keyboard(p params) ([][]Button, bool, *apiError) {
	var m markup
	if ok, err := p.object("reply_markup", &m); err != nil {
		return nil, false, badRequest("%v", err)
	} else if !ok {
		return nil, false, nil
	}
	var rows [][]Button
	for _, row := range m.InlineKeyboard {
		var out []Button
		for _, b := range row {
			var actions []string
			for _, a := range buttonActions {
				if _, ok := b[a]; ok {
					actions = append(actions, a)
				}
			}
			text, _ := b["text"].(string)
			data, _ := b["callback_data"].(string)
			switch {
			case len(actions) != 1:
				return nil, false, badRequest("can't parse inline keyboard button: exactly one of the optional fields must be used, got %v", actions)
			case text == "":
				return nil, false, badRequest("BUTTON_TEXT_INVALID")
			case actions[0] != "callback_data":
				return nil, false, badRequest("the fake takes callback_data buttons only, got %s", actions[0])
			case data == "" || len(data) > 64:
				return nil, false, badRequest("BUTTON_DATA_INVALID")
			}
			out = append(out, Button{Text: text, Data: data})
		}
		rows = append(rows, out)
	}
	return rows, m.ForceReply, nil
}

// text reads and checks the text parameter, parsed as parse_mode says.
func text(p params) (plain, sent string, aerr *apiError) {
	sent = p.str("text")
	plain = sent
	switch mode := p.str("parse_mode"); mode {
	case "":
	case "HTML":
		var err error
		if plain, err = parseHTML(sent); err != nil {
			return "", "", badRequest("can't parse entities: %v", err)
		}
	default:
		return "", "", badRequest("the fake parses HTML only, got parse_mode %q", mode)
	}
	switch n := len(utf16.Encode([]rune(plain))); {
	case n == 0:
		return "", "", badRequest("message text is empty")
	case n > 4096:
		return "", "", badRequest("message is too long")
	}
	return plain, sent, nil
}

func (s *Server) sendMessage(p params, _ *http.Request) (any, *apiError) {
	chatID, _ := p.int("chat_id")
	plain, sent, aerr := text(p)
	if aerr != nil {
		return nil, aerr
	}
	kb, force, aerr := keyboard(p)
	if aerr != nil {
		return nil, aerr
	}
	var rp struct {
		MessageID int  `json:"message_id"`
		Allow     bool `json:"allow_sending_without_reply"`
	}
	if _, err := p.object("reply_parameters", &rp); err != nil {
		return nil, badRequest("%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	switch {
	case c == nil:
		return nil, badRequest("chat not found")
	case c.refuse != "":
		return nil, errorf(http.StatusForbidden, "Forbidden: %s", c.refuse)
	}
	if rp.MessageID != 0 {
		if to := s.messageLocked(chatID, rp.MessageID); to == nil {
			if !rp.Allow {
				return nil, badRequest("message to be replied not found")
			}
			rp.MessageID = 0
		}
	}
	m := &Message{ID: len(s.messages) + 1, Chat: chatID, From: s.Bot, Text: plain, Sent: sent, ParseMode: p.str("parse_mode"),
		Keyboard: kb, ForceReply: force, ReplyTo: rp.MessageID, Date: time.Now()}
	s.messages = append(s.messages, m)
	s.bumpLocked()
	return s.wireLocked(m, true), nil
}

// messageLocked is message id of chat, if it exists and was not deleted.
func (s *Server) messageLocked(chat int64, id int) *Message {
	if id < 1 || id > len(s.messages) {
		return nil
	}
	m := s.messages[id-1]
	if m.Chat != chat || m.Deleted {
		return nil
	}
	return m
}

// edit applies an edit of the bot's message named by chat_id and
// message_id: the new text (keepText: unchanged) and keyboard.
func (s *Server) edit(p params, keepText bool) (any, *apiError) {
	chatID, _ := p.int("chat_id")
	id, _ := p.int("message_id")
	var plain, sent string
	if !keepText {
		var aerr *apiError
		if plain, sent, aerr = text(p); aerr != nil {
			return nil, aerr
		}
	}
	kb, _, aerr := keyboard(p)
	if aerr != nil {
		return nil, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messageLocked(chatID, int(id))
	if m == nil || m.From.ID != s.Bot.ID {
		return nil, badRequest("message to edit not found")
	}
	if keepText {
		plain, sent = m.Text, m.Sent
	}
	if plain == m.Text && slices.EqualFunc(kb, m.Keyboard, slices.Equal) {
		return nil, badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	m.Edits = append(m.Edits, Edit{Text: m.Text, Keyboard: m.Keyboard})
	m.Text, m.Sent, m.Keyboard = plain, sent, kb
	if !keepText {
		m.ParseMode = p.str("parse_mode")
	}
	s.bumpLocked()
	return s.wireLocked(m, true), nil
}

func (s *Server) editMessageText(p params, _ *http.Request) (any, *apiError) { return s.edit(p, false) }

func (s *Server) editMessageReplyMarkup(p params, _ *http.Request) (any, *apiError) {
	return s.edit(p, true)
}

// wireLocked is m as the Bot API shows a message; withReply includes the
// message it replies to (one level, as Telegram does).
func (s *Server) wireLocked(m *Message, withReply bool) map[string]any {
	chat := map[string]any{"id": m.Chat, "type": "private"}
	if c := s.chats[m.Chat]; c != nil && c.typ != "" {
		chat["type"] = c.typ
	}
	out := map[string]any{"message_id": m.ID, "from": m.From, "chat": chat, "date": m.Date.Unix(), "text": m.Text}
	if m.Keyboard != nil {
		out["reply_markup"] = map[string]any{"inline_keyboard": m.Keyboard}
	}
	if withReply && m.ReplyTo != 0 {
		if to := s.messageLocked(m.Chat, m.ReplyTo); to != nil {
			out["reply_to_message"] = s.wireLocked(to, false)
		}
	}
	return out
}

// query is a callback query: a press on an inline button.
type query struct {
	id       string
	answered bool
	text     string
}

func (s *Server) answerCallbackQuery(p params, _ *http.Request) (any, *apiError) {
	id := p.str("callback_query_id")
	answer := p.str("text")
	if n := len(utf16.Encode([]rune(answer))); n > 200 {
		return nil, badRequest("MESSAGE_TOO_LONG")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queries[id]
	if q == nil || q.answered {
		return nil, badRequest("query is too old and response timeout expired or query ID is invalid")
	}
	q.answered, q.text = true, answer
	s.bumpLocked()
	return true, nil
}

// update is an update waiting to be fetched and confirmed.
type update struct {
	id   int64
	kind string // "message" or "callback_query"
	body any
}

func (u update) wire() map[string]any { return map[string]any{"update_id": u.id, u.kind: u.body} }

// addUpdateLocked queues an update of kind.
func (s *Server) addUpdateLocked(kind string, body any) int64 {
	u := update{id: s.nextUpd, kind: kind, body: body}
	s.nextUpd++
	s.updates = append(s.updates, u)
	s.bumpLocked()
	return u.id
}

const conflict = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"

func (s *Server) getUpdates(p params, r *http.Request) (any, *apiError) {
	offset, _ := p.int("offset")
	limit, ok := p.int("limit")
	if !ok || limit < 1 || limit > 100 {
		limit = 100
	}
	timeout, _ := p.int("timeout")
	var allowed []string
	if _, err := p.object("allowed_updates", &allowed); err != nil {
		return nil, badRequest("%v", err)
	}
	s.mu.Lock()
	if s.poller != nil {
		close(s.poller) // one poller per token: the one under way gets 409
	}
	mine := make(chan struct{})
	s.poller = mine
	if offset > 0 && !s.faults.keep {
		s.updates = slices.DeleteFunc(s.updates, func(u update) bool { return u.id < offset })
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.poller == mine {
			s.poller = nil
		}
		s.mu.Unlock()
	}()
	deadline := time.After(time.Duration(timeout) * time.Second)
	for {
		s.mu.Lock()
		var out []map[string]any
		for _, u := range s.updates {
			if u.id >= offset && (len(allowed) == 0 || slices.Contains(allowed, u.kind)) && len(out) < int(limit) {
				out = append(out, u.wire())
			}
		}
		changed := s.changed
		s.mu.Unlock()
		if len(out) > 0 {
			return out, nil
		}
		select {
		case <-changed:
		case <-deadline:
			return []any{}, nil
		case <-mine:
			return nil, errorf(http.StatusConflict, conflict)
		case <-r.Context().Done():
			return nil, nil
		}
	}
}

// Pending is how many updates wait to be confirmed by the bot.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// String is the message as JSON, for a test's failure message.
func (m Message) String() string {
	b, _ := json.Marshal(m)
	return string(b)
}
