package slackfake

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Block Kit's documented limits that askuser's messages meet: a message
// that breaks one is refused with invalid_blocks, as Slack refuses it,
// with the same kind of pointer to what is wrong.

type obj = map[string]any

// checkBlocks reads a message's blocks ("" for none) and checks them.
func checkBlocks(raw string) (json.RawMessage, *refusal) {
	if raw == "" {
		return nil, nil
	}
	var blocks []obj
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		return nil, &refusal{code: "invalid_blocks_format", errors: []string{err.Error()}}
	}
	v := &validator{ids: map[string]bool{}}
	if len(blocks) > 50 {
		v.fail("/blocks", "no more than 50 items allowed")
	}
	for i, b := range blocks {
		v.block(fmt.Sprintf("/blocks/%d", i), b)
	}
	if len(v.errs) > 0 {
		return nil, &refusal{code: "invalid_blocks", errors: v.errs}
	}
	return json.RawMessage(raw), nil
}

type validator struct {
	ids  map[string]bool
	errs []string
}

func (v *validator) fail(at, why string) {
	v.errs = append(v.errs, why+" [json-pointer:"+at+"]")
}

func (v *validator) block(at string, b obj) {
	if id, ok := b["block_id"].(string); ok {
		v.max(at+"/block_id", id, 255)
		if v.ids[id] {
			v.fail(at+"/block_id", "duplicate block_id")
		}
		v.ids[id] = true
	}
	switch b["type"] {
	case "section":
		v.text(at+"/text", b["text"], 3000, false)
	case "context":
		els, _ := b["elements"].([]any)
		if len(els) == 0 || len(els) > 10 {
			v.fail(at+"/elements", "must have 1 to 10 items")
		}
		for i, e := range els {
			v.text(fmt.Sprintf("%s/elements/%d", at, i), e, 3000, false)
		}
	case "header":
		v.text(at+"/text", b["text"], 150, true)
	case "input":
		v.text(at+"/label", b["label"], 2000, true)
		if b["hint"] != nil {
			v.text(at+"/hint", b["hint"], 2000, true)
		}
		el, _ := b["element"].(obj)
		v.element(at+"/element", el)
	case "actions":
		els, _ := b["elements"].([]any)
		if len(els) == 0 || len(els) > 25 {
			v.fail(at+"/elements", "must have 1 to 25 items")
		}
		seen := map[string]bool{}
		for i, e := range els {
			el, _ := e.(obj)
			if id, _ := el["action_id"].(string); id != "" && seen[id] {
				v.fail(fmt.Sprintf("%s/elements/%d/action_id", at, i), "duplicate action_id")
			} else {
				seen[id] = true
			}
			v.element(fmt.Sprintf("%s/elements/%d", at, i), el)
		}
	case "divider":
	default:
		v.fail(at+"/type", fmt.Sprintf("unknown block type %v", b["type"]))
	}
}

func (v *validator) element(at string, el obj) {
	if el == nil {
		v.fail(at, "missing required field: element")
		return
	}
	if id, ok := el["action_id"].(string); ok {
		v.max(at+"/action_id", id, 255)
	}
	switch el["type"] {
	case "button":
		v.text(at+"/text", el["text"], 75, true)
		if val, ok := el["value"].(string); ok {
			v.max(at+"/value", val, 2000)
		}
	case "radio_buttons", "checkboxes":
		opts, _ := el["options"].([]any)
		if len(opts) == 0 || len(opts) > 10 {
			v.fail(at+"/options", "must have 1 to 10 items")
		}
		for i, o := range opts {
			op, _ := o.(obj)
			p := fmt.Sprintf("%s/options/%d", at, i)
			v.text(p+"/text", op["text"], 75, false)
			val, _ := op["value"].(string)
			v.max(p+"/value", val, 150)
			if op["description"] != nil {
				v.text(p+"/description", op["description"], 75, false)
			}
		}
	case "plain_text_input":
		if el["placeholder"] != nil {
			v.text(at+"/placeholder", el["placeholder"], 150, true)
		}
		if n, ok := el["max_length"].(float64); ok && (n < 1 || n > 3000) {
			v.fail(at+"/max_length", "must be between 1 and 3000")
		}
	default:
		v.fail(at+"/type", fmt.Sprintf("unknown element type %v", el["type"]))
	}
}

// text checks a text object: its type (plain_text only, when plainOnly),
// and its text, 1 to n characters.
func (v *validator) text(at string, t any, n int, plainOnly bool) {
	o, _ := t.(obj)
	if o == nil {
		v.fail(at, "missing required field: text")
		return
	}
	typ, _ := o["type"].(string)
	if typ != "plain_text" && (plainOnly || typ != "mrkdwn") {
		v.fail(at+"/type", "must be a plain_text"+map[bool]string{true: "", false: " or mrkdwn"}[plainOnly]+" object")
	}
	s, _ := o["text"].(string)
	if s == "" {
		v.fail(at+"/text", "must be more than 0 characters")
	}
	v.max(at+"/text", s, n)
}

func (v *validator) max(at, s string, n int) {
	if utf8.RuneCountInString(s) > n {
		v.fail(at, fmt.Sprintf("must be less than %d characters", n+1))
	}
}

// refusal is a Slack error: its code, and what Slack lists under errors.
type refusal struct {
	code   string
	errors []string
	needed string // for missing_scope: the scope ("chat:write" when unset)
}
