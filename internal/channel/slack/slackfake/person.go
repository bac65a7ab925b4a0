package slackfake

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// User is a person in the workspace: their id, and their username
// (without "@").
type User struct{ ID, Name string }

// Pick is what a person does to one question of a message: the options
// they choose, by position as shown, and what they type under Other.
type Pick struct {
	Options []int
	Other   string
}

// Submit is user filling in the message with ts and pressing its Submit
// button: the k-th group of radio buttons or checkboxes and the k-th text
// input take picks[k]. Slack sends the app a block_actions envelope with
// the whole form in state.values, the options as they were posted. It
// fails where a person could not go on: a message that is gone or has no
// Submit, an option that is not there, two radio buttons at once.
func (s *Server) Submit(limit time.Duration, ts string, u User, picks ...Pick) (*Envelope, error) {
	return s.submit(limit, ts, u, false, picks)
}

// SubmitAsPosted is Submit on the message as it was first posted: a
// person whose Slack has not shown an update yet, or who answers an
// outdated copy.
func (s *Server) SubmitAsPosted(limit time.Duration, ts string, u User, picks ...Pick) (*Envelope, error) {
	return s.submit(limit, ts, u, true, picks)
}

func (s *Server) submit(limit time.Duration, ts string, u User, posted bool, picks []Pick) (*Envelope, error) {
	s.mu.Lock()
	m := s.find("", ts)
	var msg Message
	if m != nil {
		msg = *m
	}
	s.next++
	actionTS := fmt.Sprintf("%d.%06d", time.Now().Unix(), s.next)
	s.mu.Unlock()
	if m == nil || msg.Deleted {
		return nil, fmt.Errorf("slackfake: message %s is not there to answer", ts)
	}
	if posted {
		msg.Blocks = msg.Posted
	}
	var blocks []obj
	if err := json.Unmarshal(msg.Blocks, &blocks); err != nil {
		return nil, fmt.Errorf("slackfake: message %s has no blocks to fill in", ts)
	}
	f := &filling{picks: picks, values: obj{}}
	for _, b := range blocks {
		if err := f.block(b); err != nil {
			return nil, err
		}
	}
	if f.button == nil {
		return nil, fmt.Errorf("slackfake: message %s has no Submit button", ts)
	}
	if len(picks) > f.choices {
		return nil, fmt.Errorf("slackfake: %d picks for a message with %d questions", len(picks), f.choices)
	}
	container := obj{"type": "message", "message_ts": msg.TS, "channel_id": msg.Channel, "is_ephemeral": false}
	message := obj{"type": "message", "user": BotUser, "bot_id": BotID, "text": msg.Text, "ts": msg.TS, "blocks": msg.Blocks}
	if msg.Thread != "" {
		container["thread_ts"], message["thread_ts"] = msg.Thread, msg.Thread
	}
	action := obj{"type": "button", "block_id": f.buttonBlock, "action_id": f.button["action_id"], "text": f.button["text"],
		"value": f.button["value"], "action_ts": actionTS}
	if st, ok := f.button["style"]; ok {
		action["style"] = st
	}
	payload, err := json.Marshal(obj{
		"type":       "block_actions",
		"user":       obj{"id": u.ID, "username": u.Name, "name": u.Name, "team_id": TeamID},
		"api_app_id": AppID, "token": "fake-verification-token", "trigger_id": "1." + actionTS,
		"team": obj{"id": TeamID, "domain": "fake"}, "enterprise": nil, "is_enterprise_install": false,
		"container": container, "channel": obj{"id": msg.Channel, "name": "askuser"}, "message": message,
		"state": obj{"values": f.values}, "response_url": "https://hooks.slack.test/actions/" + TeamID + "/1/x",
		"actions": []any{action},
	})
	if err != nil {
		return nil, err
	}
	return s.send(limit, "interactive", payload, "")
}

// filling is a form being filled in, block by block.
type filling struct {
	picks          []Pick
	choices, texts int
	values         obj
	button         obj
	buttonBlock    any
}

func (f *filling) block(b obj) error {
	switch b["type"] {
	case "input":
		el, _ := b["element"].(obj)
		id, _ := b["block_id"].(string)
		aid, _ := el["action_id"].(string)
		v, err := f.element(el)
		if err != nil {
			return err
		}
		if v != nil {
			f.values[id] = obj{aid: v}
		}
	case "actions":
		els, _ := b["elements"].([]any)
		for _, e := range els {
			el, _ := e.(obj)
			if t, _ := el["text"].(obj); el["type"] == "button" && t["text"] == "Submit" {
				f.button, f.buttonBlock = el, b["block_id"]
			}
		}
	}
	return nil
}

// element is an input's value in state.values, as Slack writes it.
func (f *filling) element(el obj) (obj, error) {
	pick := func(n *int) Pick {
		var p Pick
		if *n < len(f.picks) {
			p = f.picks[*n]
		}
		*n++
		return p
	}
	switch el["type"] {
	case "radio_buttons", "checkboxes":
		p := pick(&f.choices)
		opts, _ := el["options"].([]any)
		var chosen []any
		for _, i := range p.Options {
			if i < 0 || i >= len(opts) {
				return nil, fmt.Errorf("slackfake: question %d has no option %d (it shows %d)", f.choices, i+1, len(opts))
			}
			chosen = append(chosen, opts[i])
		}
		if el["type"] == "checkboxes" {
			return obj{"type": "checkboxes", "selected_options": append([]any{}, chosen...)}, nil
		}
		if len(chosen) > 1 {
			return nil, fmt.Errorf("slackfake: question %d takes one radio button", f.choices)
		}
		v := obj{"type": "radio_buttons", "selected_option": nil}
		if len(chosen) == 1 {
			v["selected_option"] = chosen[0]
		}
		return v, nil
	case "plain_text_input":
		p := pick(&f.texts)
		v := obj{"type": "plain_text_input", "value": nil}
		if p.Other != "" {
			v["value"] = p.Other
		}
		return v, nil
	}
	return nil, nil
}

// View is message m as a person reads it, one line per thing shown:
// "( )" a radio button, "[ ]" a checkbox, "[____]" a text input, "[Submit]"
// a button.
func (m Message) View() string {
	var blocks []obj
	if json.Unmarshal(m.Blocks, &blocks) != nil {
		return m.Text
	}
	var b strings.Builder
	for _, bl := range blocks {
		switch bl["type"] {
		case "context":
			els, _ := bl["elements"].([]any)
			for _, e := range els {
				b.WriteString("· " + textOf(e) + "\n")
			}
		case "section", "header":
			b.WriteString(textOf(bl["text"]) + "\n")
		case "input":
			b.WriteString(viewInput(bl))
		case "actions":
			els, _ := bl["elements"].([]any)
			for _, e := range els {
				el, _ := e.(obj)
				b.WriteString("[" + textOf(el["text"]) + "]\n")
			}
		}
	}
	return b.String()
}

func viewInput(bl obj) string {
	el, _ := bl["element"].(obj)
	var b strings.Builder
	b.WriteString(textOf(bl["label"]) + ":\n")
	box := "( ) "
	if el["type"] == "checkboxes" {
		box = "[ ] "
	}
	switch el["type"] {
	case "radio_buttons", "checkboxes":
		opts, _ := el["options"].([]any)
		for _, o := range opts {
			op, _ := o.(obj)
			b.WriteString("  " + box + textOf(op["text"]))
			if op["description"] != nil {
				b.WriteString(" — " + textOf(op["description"]))
			}
			b.WriteString("\n")
		}
	case "plain_text_input":
		b.WriteString("  [" + textOf(el["placeholder"]) + "]\n")
	}
	if bl["hint"] != nil {
		b.WriteString("  " + textOf(bl["hint"]) + "\n")
	}
	return b.String()
}

func textOf(t any) string {
	o, _ := t.(obj)
	s, _ := o["text"].(string)
	return s
}
