package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// refusal is a send WhatsApp refused for a reason a retry will not fix;
// its text says why and what to do. window: outside the 24-hour window,
// which the person opens by writing.
type refusal struct {
	text   string
	window bool
}

func (r *refusal) Error() string { return r.text }
func (r *refusal) Unwrap() error { return channel.ErrRefused }

// checkID starts the ids of the sample question's buttons.
const checkID = "askuser-check."

// windowText says what WhatsApp's 24-hour window is and what to do about
// it: the words of every refusal for it, sent or noticed later.
func windowText(to string) string {
	return "WhatsApp did not deliver it to " + E164(to) + ": more than 24 hours have passed since that number last wrote to this one, " +
		"and outside that window WhatsApp delivers only approved template messages. Ask them to send any message to this number; " +
		"askuser sends the question again then"
}

// explain turns a Graph error into what a person can act on, in one line:
// a bad token, a missing permission (named), an unknown phone number id,
// the 24-hour window, a recipient WhatsApp cannot reach. Others pass
// through as they are (redacted already).
func (c *Channel) explain(err error) error {
	var ae *apiError
	if !errors.As(err, &ae) {
		return err
	}
	switch {
	case ae.code == codeAccessToken || ae.status == http.StatusUnauthorized:
		return fmt.Errorf("WhatsApp refused the access token (%s): it is wrong, expired or revoked; make a new one (a system user's token need not expire): %w", envToken, err)
	case ae.code == codePermission || ae.code >= codePermissionMany && ae.code < 300:
		return fmt.Errorf("the access token (%s) lacks the whatsapp_business_messaging permission (and whatsapp_business_management to read the number): grant them to the app's system user: %w", envToken, err)
	case ae.code == codeBadParameter && ae.subcode == 33:
		return fmt.Errorf("%s names no phone number this token can use: copy the phone number's id (not the number) from the app's WhatsApp API Setup page: %w", envPhoneID, err)
	case ae.code == codeWindow:
		return &refusal{text: windowText(c.to) + " (code 131047)", window: true}
	case ae.code == codeUndeliverable:
		return &refusal{text: "WhatsApp cannot deliver to " + E164(c.to) + ": the number is not on WhatsApp, its app is too old, or its owner has not accepted WhatsApp's terms; check ASKUSER_WHATSAPP_TO (code 131026)"}
	case ae.code == codeNotAllowedTo:
		return &refusal{text: E164(c.to) + " is not among the test number's recipients: add it on the app's WhatsApp API Setup page, or send from a registered number (code 131030)"}
	}
	return err
}

// Check implements channel.Channel: it reads the sending number (the
// token and the phone number id), then sends the recipient a sample
// question (the recipient, the 24-hour window). A tap on the sample is
// answered, when askuser serve takes the webhook, with a line saying so.
func (c *Channel) Check(ctx context.Context) error {
	var number struct {
		DisplayPhoneNumber string `json:"display_phone_number"`
	}
	if err := c.api.call(ctx, "/"+c.api.phoneID+"?fields=display_phone_number,verified_name", nil, &number, true); err != nil {
		return c.explain(err)
	}
	m := newMessage(c.to, "")
	m.Type, m.Interactive = "interactive", &interactive{Type: "button",
		Header: &ixHeader{Type: "text", Text: "askuser channels test"},
		Body:   ixText{Text: "*Test* · This is how askuser asks you a question here. Can you read it?\n\n1. Yes\n2. No"},
		Footer: &ixText{Text: hint("", ask.Question{}, formButtons)},
		Action: ixAction{Buttons: []ixButton{{Type: "reply", Reply: ixReply{ID: checkID + "1", Title: "Yes"}},
			{Type: "reply", Reply: ixReply{ID: checkID + "2", Title: "No"}}}}}
	_, err := c.sendMessage(ctx, m, true)
	return err
}
