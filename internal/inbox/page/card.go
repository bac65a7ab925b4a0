package page

import "github.com/askuser/askuser/ask"

// The card and what it holds: a question set, open as a form or closed
// with its answers or its note, and the disclosure of its detail.

// card writes one question set (the card page's, the inbox's, a
// session's).
func (h *html) card(v CardView) {
	h.s(`<article class="card state-`)
	h.t(v.State)
	h.s(`" id="set-`)
	h.t(v.Key)
	h.s(`" data-rev="`)
	h.t(v.Rev())
	h.s(`" data-state="`)
	h.t(v.State)
	h.s(`" tabindex="-1" aria-label="`)
	h.t(v.Name)
	h.s(`">
<header class="card-head">
<span class="kind">`)
	h.t(v.Kind)
	h.s(`</span>`)
	if v.Agent != "" {
		h.s(` <span class="agent">Sub-agent: `)
		h.t(v.Agent)
		h.s(`</span>`)
	}
	h.s("\n<time class=\"when\" datetime=\"")
	h.t(rfc3339(v.AskedAt))
	h.s(`">asked `)
	h.t(clock(v.AskedAt))
	h.s("</time>\n</header>")
	if v.Flash != "" {
		h.s("\n<p class=\"flash\" role=\"alert\">")
		h.t(v.Flash)
		h.s(`</p>`)
	}
	switch {
	case v.Open():
		h.openCard(v)
	case len(v.Answers) > 0:
		h.s("\n<dl class=\"answers\">")
		for _, a := range v.Answers {
			h.s("\n<div class=\"ans\"><dt><span class=\"chip\">")
			h.t(a.Header)
			h.s(`</span> `)
			h.t(a.Question)
			h.s(`</dt><dd>`)
			h.t(a.Summary)
			h.s(`</dd></div>`)
		}
		h.s("\n</dl>")
		h.cardDetail(v.Detail)
		h.s("\n<p class=\"note\">")
		if v.Note != "" {
			h.t(v.Note)
		} else {
			h.s(`Answered on this page at `)
			h.t(clock(v.ClosedAt))
			h.s(`.`)
		}
		h.s(`</p>`)
	default:
		h.s("\n<ul class=\"withdrawn-qs\">")
		for _, q := range v.Questions {
			h.s(`<li><span class="chip">`)
			h.t(q.Header)
			h.s(`</span> `)
			h.t(q.Text)
			h.s(`</li>`)
		}
		h.s(`</ul>`)
		h.cardDetail(v.Detail)
		h.s("\n<p class=\"note\">")
		h.t(v.Note)
		h.s(`</p>`)
	}
	h.s("\n</article>")
}

// cardDetail writes a card's disclosure on a line of its own, if it has
// one.
func (h *html) cardDetail(d *DetailView) {
	if d != nil {
		h.s("\n")
		h.detail(d)
	}
}

// openCard writes the form of a set that still takes an answer.
func (h *html) openCard(v CardView) {
	h.s("\n<form class=\"set\" method=\"post\" action=\"")
	h.url(v.Action)
	h.s("\">\n<input type=\"hidden\" name=\"csrf\" value=\"")
	h.t(v.CSRF)
	h.s(`">`)
	for _, q := range v.Questions {
		h.question(v, q)
	}
	h.s("\n<div class=\"actions\"><button type=\"submit\">Submit ")
	if len(v.Questions) > 1 {
		h.s(`answers`)
	} else {
		h.s(`answer`)
	}
	h.s("</button><p class=\"msg\" role=\"status\" aria-live=\"polite\"></p></div>\n</form>")
}

// question writes one question of v's form: its options, Other, and for
// a multi-select the box that confirms an answer with nothing ticked,
// for a page without script (page.js asks instead).
func (h *html) question(v CardView, q QuestionView) {
	h.s("\n<fieldset class=\"q\"")
	if q.Multi {
		h.s(` data-multi data-header="`)
		h.t(q.Header)
		h.s(`" data-none="`)
		h.t(q.NoneName)
		h.s(`"`)
	}
	h.s(">\n<legend><span class=\"chip\">")
	h.t(q.Header)
	h.s(`</span> <span class="qtext">`)
	h.t(q.Text)
	h.s(`</span></legend>`)
	if q.Index == 0 {
		h.cardDetail(v.Detail)
	}
	h.s("\n<div class=\"opts\">")
	kind, required := "radio", ""
	if q.Multi {
		kind = "checkbox"
	}
	if q.RequiredSelected {
		required = " required"
	}
	for _, o := range q.Options {
		h.s("\n<label class=\"opt\"><input type=\"", kind, "\" name=\"")
		h.t(q.Name)
		h.s(`" value="`)
		h.t(o.Value)
		h.s(`"`)
		if o.Checked {
			h.s(` checked`)
		}
		h.s(required, `><span class="opt-body"><span class="label">`)
		h.t(o.Label)
		if o.Recommended {
			h.s(` <span class="rec">Recommended</span>`)
		}
		h.s(`</span>`)
		if o.Description != "" {
			h.s(`<span class="desc">`)
			h.t(o.Description)
			h.s(`</span>`)
		}
		h.s(`</span></label>`)
	}
	h.s("\n<label class=\"opt other\"><input class=\"other-choice\" type=\"", kind, "\" name=\"")
	h.t(q.Name)
	h.s(`" value="other"`, required, `><span class="opt-body"><span class="label">Other</span><span class="desc">Type your own answer</span></span></label>`+
		"\n<input class=\"other-text\" type=\"text\" name=\"")
	h.t(q.OtherName)
	h.s(`" maxlength="2000" autocomplete="off" placeholder="Your answer" aria-label="Other answer to `)
	h.t(q.Header)
	h.s("\">\n</div>")
	if q.Multi {
		h.s("\n<noscript><label class=\"opt none\"><input type=\"checkbox\" name=\"")
		h.t(q.NoneName)
		h.s(`" value="1"><span class="opt-body"><span class="label">Submit with nothing selected</span><span class="desc">Tick this to answer with none of these</span></span></label></noscript>`)
	}
	h.s("\n</fieldset>")
}

// detail writes a card's disclosure: its detail as JSON read by a person,
// or as text, and a link to the whole when it was cut.
func (h *html) detail(d *DetailView) {
	h.s(`<details class="detail">`, "\n<summary>")
	h.t(d.Label)
	h.s("</summary>\n<div class=\"detail-body\">")
	if d.JSON != nil {
		h.json(d.JSON)
	} else {
		h.s(`<pre class="detail-text">`)
		h.t(d.Text)
		h.s(`</pre>`)
	}
	if d.Cut {
		h.s("\n<p class=\"note\">This shows the first ")
		h.t(Digits(d.Limit))
		h.s(` characters of `)
		h.t(Digits(d.Chars))
		h.s(`. <a href="`)
		h.url(d.Href)
		h.s(`" target="_blank" rel="noopener">Open the whole text</a></p>`)
	}
	h.s("\n</div>\n</details>")
}

// json writes a JSON value read by a person: objects as lists of their
// fields, arrays as numbered lists, strings and literals as text, and what
// the budget left out counted.
func (h *html) json(n *ask.JSONNode) {
	switch {
	case n.Kind == "object":
		h.s(`<dl class="jv-obj">`)
		for i := range n.Fields {
			f := &n.Fields[i]
			h.s(`<div class="jv-field`)
			if f.Value.Block {
				h.s(` jv-wide`)
			}
			h.s(`"><dt>`)
			h.t(f.Key)
			h.s(`</dt><dd>`)
			h.json(&f.Value)
			h.s(`</dd></div>`)
		}
		if n.Left != 0 {
			h.s(`<div class="jv-field"><dt class="jv-more">… and `)
			h.n(n.Left)
			h.s(` more field`, pluralS(n.Left), `</dt></div>`)
		}
		h.s(`</dl>`)
	case n.Kind == "array":
		h.s(`<ol class="jv-arr">`)
		for i := range n.Items {
			h.s(`<li>`)
			h.json(&n.Items[i])
			h.s(`</li>`)
		}
		if n.Left != 0 {
			h.s(`<li class="jv-more">… and `)
			h.n(n.Left)
			h.s(` more item`, pluralS(n.Left), `</li>`)
		}
		h.s(`</ol>`)
	case n.Empty():
		h.s(`<code class="jv-lit">""</code>`)
	case n.Kind == "string":
		h.s(`<span class="jv-str`)
		if n.Block {
			h.s(` jv-block`)
		}
		h.s(`">`)
		h.jsonText(n)
		h.s(`</span>`)
	default:
		h.s(`<code class="jv-lit">`)
		h.jsonText(n)
		h.s(`</code>`)
	}
}

// jsonText writes a string's or a literal's text and what was left of it.
func (h *html) jsonText(n *ask.JSONNode) {
	h.t(n.Text)
	if n.Left != 0 {
		h.s(`<span class="jv-more">… and `)
		h.t(Digits(n.Left))
		h.s(` more characters</span>`)
	}
}

// pluralS is "s" but for one.
func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// cards writes the card page's body: every set, or that none came yet.
func (h *html) cards(d CardsData) {
	if len(d.Cards) == 0 {
		h.s(`
<section id="empty" class="empty" data-rev="empty">
<h1>No questions yet</h1>
<p>askuser is waiting for the agent to ask something. Questions appear here by themselves.</p>
</section>`)
	}
	for _, c := range d.Cards {
		h.s("\n")
		h.card(c)
	}
	h.s("\n")
}

// asked writes the page of a set asked outside a session.
func (h *html) asked(d AskedData) {
	h.s(`
<section id="summary" class="panel">
<p class="meta"><a href="/">← Inbox</a></p>
<h1 class="prompt title">Asked by `)
	h.t(d.Who)
	h.s("</h1>\n<p class=\"meta\"><strong class=\"status\">")
	h.t(d.Status)
	h.s(`</strong> · asked `)
	h.t(pageStamp(d.AskedAt))
	h.s(" · outside a session: the process that asked takes the answer</p>\n</section>\n")
	h.card(d.Card)
	h.s("\n")
}
