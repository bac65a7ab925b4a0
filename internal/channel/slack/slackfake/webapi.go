package slackfake

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The Web API: each call is answered as Slack answers it, after the
// faults a test set up for its method.

// api answers a Web API call.
func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	method := strings.TrimPrefix(r.URL.Path, "/api/")
	form, err := readForm(r)
	token := form.Get("token")
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		token = strings.TrimPrefix(h, "Bearer ")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{Method: method, At: time.Now(), Status: http.StatusOK, Form: form}
	defer func() {
		s.calls = append(s.calls, call)
		s.bumpLocked()
	}()
	f, ok := s.takeFault(method)
	if ok && f.stall {
		// Done, and never answered: the caller gives up (or is killed)
		// not knowing whether it was.
		_, _ = s.method(w, method, form)
		call.Error = "stalled"
		s.bumpLocked()
		s.mu.Unlock()
		<-r.Context().Done()
		s.mu.Lock()
		return
	}
	if ok && f.status != 0 {
		call.Status, call.Error = f.status, http.StatusText(f.status)
		if f.retryAfter > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(f.retryAfter))
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(f.status)
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "ratelimited"})
		return
	}
	var out map[string]any
	var no *refusal
	switch {
	case ok:
		no = &refusal{code: f.code}
	case err != nil:
		no = &refusal{code: "invalid_form_data"}
	default:
		if code := s.authorise(method, token); code != "" {
			no = &refusal{code: code}
		} else {
			out, no = s.method(w, method, form)
		}
	}
	if no != nil {
		call.Error = strings.Join(append([]string{no.code}, no.errors...), ": ")
		s.refuse(w, no, token)
		return
	}
	out["ok"] = true
	writeJSON(w, out)
}

func (s *Server) takeFault(method string) (fault, bool) {
	fs := s.faults[method]
	if len(fs) == 0 {
		return fault{}, false
	}
	s.faults[method] = fs[1:]
	return fs[0], true
}

// authorise checks the token a method was called with: the app-level
// token for apps.connections.open, the bot token for the rest.
func (s *Server) authorise(method, token string) string {
	want, other := s.cfg.BotToken, s.cfg.AppToken
	if method == "apps.connections.open" {
		want, other = other, want
	}
	switch token {
	case "":
		return "not_authed"
	case want:
		return ""
	case other:
		return "not_allowed_token_type"
	}
	return "invalid_auth"
}

// refuse answers a call with a Slack error; with EchoTokens, the error
// quotes the token, as a careless proxy would.
func (s *Server) refuse(w http.ResponseWriter, no *refusal, token string) {
	body := map[string]any{"ok": false, "error": no.code}
	if s.echo {
		body["error"] = no.code + " (token " + token + ")"
	}
	if no.code == "missing_scope" {
		body["needed"], body["provided"] = "chat:write", s.cfg.Scopes
		if no.needed != "" {
			body["needed"] = no.needed
		}
	}
	if len(no.errors) > 0 {
		body["errors"] = no.errors
		body["response_metadata"] = map[string]any{"messages": no.errors}
	}
	writeJSON(w, body)
}

func refused(code string) *refusal { return &refusal{code: code} }

// method runs a Web API method: its answer's fields, or an error code.
func (s *Server) method(w http.ResponseWriter, method string, f url.Values) (map[string]any, *refusal) {
	switch method {
	case "auth.test":
		w.Header().Set("X-OAuth-Scopes", s.cfg.Scopes)
		return map[string]any{"url": "https://fake.slack.test/", "team": "Fake", "user": "askuser", "team_id": TeamID,
			"user_id": BotUser, "bot_id": BotID, "is_enterprise_install": false}, nil
	case "apps.connections.open":
		return map[string]any{"url": s.sock.ticket(s.srv.URL)}, nil
	case "chat.postMessage":
		return s.post(f)
	case "chat.update":
		return s.update(f)
	case "chat.postEphemeral":
		return s.postEphemeral(f)
	case "conversations.history", "conversations.replies":
		return s.history(f, method == "conversations.replies")
	}
	return nil, refused("unknown_method")
}

// history answers conversations.history (the top level of a
// conversation, newest first) and conversations.replies (a thread, its
// first message first), after oldest, with each message's metadata when
// include_all_metadata is set. Either needs a history scope, which the
// workspace's token has only when Config.Scopes lists it.
func (s *Server) history(f url.Values, replies bool) (map[string]any, *refusal) {
	if !strings.Contains(s.cfg.Scopes, "channels:history") {
		return nil, &refusal{code: "missing_scope", needed: "channels:history"}
	}
	ch, no := s.conversation(f.Get("channel"))
	if no != nil {
		return nil, no
	}
	oldest, _ := strconv.ParseFloat(f.Get("oldest"), 64)
	out := []map[string]any{}
	for _, m := range s.messages {
		ts, _ := strconv.ParseFloat(m.TS, 64)
		in := m.Thread == ""
		if replies {
			in = m.TS == f.Get("ts") || m.Thread == f.Get("ts")
		}
		if m.Channel != ch || m.Deleted || !in || ts <= oldest {
			continue
		}
		x := map[string]any{"type": "message", "user": BotUser, "bot_id": BotID, "text": m.Text, "ts": m.TS}
		if m.Thread != "" {
			x["thread_ts"] = m.Thread
		}
		if f.Get("include_all_metadata") == "1" && len(m.Metadata) > 0 {
			x["metadata"] = m.Metadata
		}
		out = append(out, x)
	}
	if !replies {
		slices.Reverse(out)
	}
	return map[string]any{"messages": out, "has_more": false}, nil
}

// conversation is where a message to id goes: a channel the bot can
// see, or a person's DM with the app.
func (s *Server) conversation(id string) (string, *refusal) {
	if strings.HasPrefix(id, "U") || strings.HasPrefix(id, "W") {
		return "D" + id[1:], nil
	}
	if strings.HasPrefix(id, "D") {
		return id, nil
	}
	member, ok := s.channels[id]
	switch {
	case !ok:
		return "", refused("channel_not_found")
	case !member:
		return "", refused("not_in_channel")
	}
	return id, nil
}

func (s *Server) post(f url.Values) (map[string]any, *refusal) {
	ch, no := s.conversation(f.Get("channel"))
	if no != nil {
		return nil, no
	}
	blocks, no := checkBlocks(f.Get("blocks"))
	if no != nil {
		return nil, no
	}
	if f.Get("text") == "" && blocks == nil {
		return nil, refused("no_text")
	}
	thread := f.Get("thread_ts")
	if thread != "" {
		if m := s.find(ch, thread); m == nil || m.Deleted {
			return nil, refused("thread_not_found")
		}
	}
	s.next++
	m := &Message{Channel: ch, TS: fmt.Sprintf("%d.%06d", s.base, s.next), Thread: thread, Text: f.Get("text"), Blocks: blocks, Posted: blocks}
	if meta := f.Get("metadata"); json.Valid([]byte(meta)) {
		m.Metadata = json.RawMessage(meta)
	}
	s.messages = append(s.messages, m)
	return map[string]any{"channel": ch, "ts": m.TS, "message": map[string]any{"type": "message", "user": BotUser,
		"bot_id": BotID, "text": m.Text, "ts": m.TS, "blocks": blocks}}, nil
}

func (s *Server) update(f url.Values) (map[string]any, *refusal) {
	if _, no := s.conversation(f.Get("channel")); no != nil {
		return nil, no
	}
	m := s.find(f.Get("channel"), f.Get("ts"))
	if m == nil || m.Deleted {
		return nil, refused("message_not_found")
	}
	blocks, no := checkBlocks(f.Get("blocks"))
	if no != nil {
		return nil, no
	}
	m.Text, m.Blocks = f.Get("text"), blocks
	m.Updates++
	return map[string]any{"channel": m.Channel, "ts": m.TS, "text": m.Text}, nil
}

func (s *Server) postEphemeral(f url.Values) (map[string]any, *refusal) {
	ch, no := s.conversation(f.Get("channel"))
	if no != nil {
		return nil, no
	}
	if f.Get("user") == "" {
		return nil, refused("user_not_found")
	}
	s.ephemerals = append(s.ephemerals, Ephemeral{Channel: ch, User: f.Get("user"), Thread: f.Get("thread_ts"), Text: f.Get("text")})
	s.next++
	return map[string]any{"message_ts": fmt.Sprintf("%d.%06d", s.base, s.next)}, nil
}

// find is the message ts of channel ch ("" for any).
func (s *Server) find(ch, ts string) *Message {
	for _, m := range s.messages {
		if m.TS == ts && (ch == "" || m.Channel == ch) {
			return m
		}
	}
	return nil
}

// readForm reads a call's arguments: a form, a JSON object (values that
// are not strings are kept as their JSON), or the query.
func readForm(r *http.Request) (url.Values, error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	v := r.URL.Query()
	switch {
	case ct == "application/json" && len(body) > 0:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(body, &obj); err != nil {
			return v, err
		}
		for k, raw := range obj {
			var str string
			if json.Unmarshal(raw, &str) == nil {
				v.Set(k, str)
			} else {
				v.Set(k, string(raw))
			}
		}
	case len(body) > 0:
		f, err := url.ParseQuery(string(body))
		if err != nil {
			return v, err
		}
		for k, vs := range f {
			v[k] = vs
		}
	}
	return v, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(v)
}
