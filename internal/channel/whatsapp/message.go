package whatsapp

// The Cloud API's message JSON, as askuser sends it: text, and
// interactive reply buttons and lists (POST /<phone number id>/messages).

type message struct {
	MessagingProduct string       `json:"messaging_product"`
	RecipientType    string       `json:"recipient_type"`
	To               string       `json:"to"`
	Type             string       `json:"type"`
	Context          *msgContext  `json:"context,omitempty"`
	Text             *textBody    `json:"text,omitempty"`
	Interactive      *interactive `json:"interactive,omitempty"`
}

// msgContext makes a message a reply to an earlier one.
type msgContext struct {
	MessageID string `json:"message_id"`
}

type textBody struct {
	Body       string `json:"body"`
	PreviewURL bool   `json:"preview_url"`
}

type interactive struct {
	Type   string    `json:"type"` // "button" or "list"
	Header *ixHeader `json:"header,omitempty"`
	Body   ixText    `json:"body"`
	Footer *ixText   `json:"footer,omitempty"`
	Action ixAction  `json:"action"`
}

type ixHeader struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

type ixText struct {
	Text string `json:"text"`
}

type ixAction struct {
	Buttons  []ixButton  `json:"buttons,omitempty"`
	Button   string      `json:"button,omitempty"` // the list's button
	Sections []ixSection `json:"sections,omitempty"`
}

type ixButton struct {
	Type  string  `json:"type"` // "reply"
	Reply ixReply `json:"reply"`
}

type ixReply struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type ixSection struct {
	Title string  `json:"title,omitempty"`
	Rows  []ixRow `json:"rows"`
}

type ixRow struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// sent is the Cloud API's answer to a send: the message's id (a wamid).
type sent struct {
	Messages []struct {
		ID string `json:"id"`
	} `json:"messages"`
}

func newMessage(to, replyTo string) message {
	m := message{MessagingProduct: "whatsapp", RecipientType: "individual", To: to}
	if replyTo != "" {
		m.Context = &msgContext{MessageID: replyTo}
	}
	return m
}

// textMessage is a plain text message to to, a reply to replyTo when set.
func textMessage(to, replyTo, body string) message {
	m := newMessage(to, replyTo)
	m.Type, m.Text = "text", &textBody{Body: body}
	return m
}
