package page

// The inbox's pages: the list of sessions and a session's page.

// session writes a session's page: its summary, its cards, the Progress
// box, its result and its transcript.
func (h *html) session(d SessionData) {
	h.s(`
<section id="summary" class="panel">
<p class="meta"><a href="/">← Inbox</a></p>
<h1 class="prompt title">`)
	h.orNoPrompt(d.Prompt)
	h.s("</h1>\n<p class=\"meta\"><strong class=\"status status-")
	h.t(d.StatusClass)
	h.s(`">`)
	h.t(d.Status)
	h.s(`</strong> · started `)
	h.t(pageStamp(d.Created))
	h.s(` · updated <time datetime="`)
	h.t(rfc3339(d.Updated))
	h.s(`" title="`)
	h.t(pageStamp(d.Updated))
	h.s(`">`)
	h.t(pageStamp(d.Updated))
	h.s(`</time>`)
	if d.Model != "" {
		h.s(` · `)
		h.t(d.Model)
	}
	h.machineWhere(d.Machine, d.Where)
	h.s(` · <code>`)
	h.t(d.ID)
	h.s("</code></p>\n</section>")
	if d.Open != 0 {
		h.s("\n<section id=\"pending\" class=\"hint-block\" data-rev=\"")
		h.n(d.Open)
		h.s("\">\n<p class=\"hint\">")
		if d.Open > 1 {
			h.n(d.Open)
			h.s(` question sets wait. Each answer is sent as you submit it; the agent goes on once every set is answered.`)
		} else {
			h.s(`Your answer is sent to the session, which then goes on by itself.`)
		}
		h.s("</p>\n</section>")
	}
	for _, c := range d.Cards {
		h.s("\n")
		h.card(c)
	}
	if d.Run != nil {
		h.progress(d.Run)
	}
	if d.Result != "" {
		h.s("\n<section id=\"result\" class=\"panel\">\n<h2>Result</h2>\n<div class=\"text\">")
		h.t(d.Result)
		h.s("</div>\n</section>")
	}
	h.s("\n<section id=\"transcript\" class=\"panel\">\n<h2>Transcript</h2>")
	if len(d.Transcript) == 0 {
		h.s(`<p class="hint">Nothing yet.</p>`)
	}
	h.s("\n<ol class=\"transcript\">")
	for i := range d.Transcript {
		e := &d.Transcript[i]
		h.s("\n<li class=\"entry entry-")
		h.t(e.Class)
		h.s(`"><span class="who">`)
		h.t(e.Who)
		h.s(`</span>`)
		if e.Input != nil {
			h.s(`<div class="input">`)
			h.json(e.Input)
			h.s(`</div>`)
		} else {
			h.s(`<div class="text">`)
			h.t(e.Text)
			h.s(`</div>`)
		}
		h.s(`</li>`)
	}
	h.s("\n</ol>\n</section>\n")
}

// progress writes the Progress box of a session answered on the page.
func (h *html) progress(r *RunView) {
	h.s("\n<section id=\"progress\" class=\"panel\">\n<h2>Progress</h2>")
	if r.Status != "" {
		h.s(`<p class="progress-status">`)
		h.t(r.Status)
		h.s(`</p>`)
	}
	if len(r.Lines) > 0 {
		h.s("\n<ol class=\"log\">")
		for _, l := range r.Lines {
			h.s("\n<li class=\"log-")
			h.t(l.Class)
			h.s(`">`)
			if l.At != "" {
				h.s(`<time>`)
				h.t(l.At)
				h.s(`</time> `)
			}
			h.t(l.Text)
			h.s(`</li>`)
		}
		h.s("\n</ol>")
	}
	h.s("\n</section>")
}

// orNoPrompt writes a session's prompt, or says it has none.
func (h *html) orNoPrompt(prompt string) {
	if prompt == "" {
		h.s(`(no prompt)`)
		return
	}
	h.t(prompt)
}

// machineWhere writes where a session runs, as far as it is known.
func (h *html) machineWhere(machine, where string) {
	if machine != "" {
		h.s(` · on <code>`)
		h.t(machine)
		h.s(`</code>`)
	}
	if where != "" {
		h.s(` · in <code>`)
		h.t(where)
		h.s(`</code>`)
	}
}

// inbox writes the list of sessions: those that wait, with the filters
// and the pager, the sets asked outside a session, then the others.
func (h *html) inbox(d HomeData) {
	h.s("\n<section id=\"waiting\" class=\"panel\">\n<h1>Waiting for you")
	if d.WaitingTotal != 0 {
		h.s(` <span class="count">`)
		h.t(Thousands(d.WaitingTotal))
		h.s(`</span>`)
	}
	h.s(`</h1>`)
	if d.Filtered || d.WaitingTotal > d.Filter.PerPage || len(d.Machines) > 1 {
		h.filters(d)
	}
	if p := d.Pager; p.Total != 0 {
		h.s("\n<p class=\"hint pager\">")
		if p.Prev != "" || p.Next != "" {
			h.s(`Showing `)
			h.t(Thousands(p.First))
			h.s(`–`)
			h.t(Thousands(p.Last))
			h.s(` of `)
		}
		h.t(Thousands(p.Total))
		if d.Filtered {
			h.s(` that match`)
		}
		if p.Prev != "" {
			h.s(` · <a rel="prev" href="`)
			h.url(p.Prev)
			h.s(`">‹ newer</a>`)
		}
		if p.Next != "" {
			h.s(` · <a rel="next" href="`)
			h.url(p.Next)
			h.s(`">older ›</a>`)
		}
		h.s(`</p>`)
	}
	if len(d.Waiting) == 0 {
		h.s("\n<p class=\"hint\">")
		switch {
		case d.Filtered && d.WaitingTotal != 0:
			h.s(`No waiting session matches; <a href="/">show every session</a>.`)
		case len(d.Asked) > 0:
			h.s(`No session is waiting on a question or an approval; the questions asked outside a session are below. This page updates by itself.`)
		default:
			h.s(`No session is waiting on a question or an approval. This page updates by itself.`)
		}
		h.s(`</p>`)
	} else {
		h.s("\n<ul class=\"sessions\">")
		for _, r := range d.Waiting {
			h.waitingRow(r)
		}
		h.s("\n</ul>")
	}
	h.s("\n</section>")
	if len(d.Asked) > 0 {
		h.s("\n<section id=\"asked\" class=\"panel\">\n<h2>Asked outside a session <span class=\"count\">")
		h.n(len(d.Asked))
		h.s("</span></h2>\n<p class=\"hint\">From <code>askuser ask</code>, <code>askuser mcp</code> and <code>askuser hook</code>: the process that asked waits for the answer.</p>\n<ul class=\"sessions\">")
		for _, r := range d.Asked {
			h.rowStart(r.Href)
			h.t(r.Prompt)
			h.s("</span>\n<span class=\"meta\">")
			h.t(r.What)
			h.s(` asked by `)
			h.t(r.Who)
			h.s(` `)
			h.since(r)
			h.s(`</span>`)
			h.chips(r.Headers)
			h.s("\n</a></li>")
		}
		h.s("\n</ul>\n</section>")
	}
	h.others(d)
}

// filters writes the list's filter form.
func (h *html) filters(d HomeData) {
	h.s("\n<form class=\"filters\" method=\"get\" action=\"/\">\n<label>Machine <select name=\"machine\"><option value=\"\">every machine</option>")
	for _, m := range d.Machines {
		h.s(`<option value="`)
		h.t(m.Name)
		h.s(`"`)
		if m.Selected {
			h.s(` selected`)
		}
		h.s(`>`)
		h.t(m.Name)
		h.s(` (`)
		h.t(Thousands(m.Count))
		h.s(`)</option>`)
	}
	h.s("</select></label>\n<label>Directory <input name=\"dir\" value=\"")
	h.t(d.Filter.Dir)
	h.s("\" placeholder=\"a part of its path\" size=\"16\"></label>\n<label>Waiting <select name=\"age\">")
	for _, a := range d.Ages {
		h.s(`<option value="`)
		h.t(a.Value)
		h.s(`"`)
		if a.Value == d.Filter.Age {
			h.s(` selected`)
		}
		h.s(`>`)
		h.t(a.Label)
		h.s(`</option>`)
	}
	h.s("</select></label>\n<button type=\"submit\">Show</button>")
	if d.Filtered {
		h.s(` <a href="/">every session</a>`)
	}
	h.s("\n</form>")
}

// waitingRow writes one session that waits.
func (h *html) waitingRow(r SessionRow) {
	h.rowStart(r.Href)
	h.t(r.Prompt)
	h.s("</span>\n<span class=\"meta\">")
	switch {
	case r.Resuming:
		h.s(`<strong class="status status-resuming">resuming</strong> · `)
	case r.Busy:
		h.s(`<strong class="status status-running">asking in its own process</strong> · `)
	case r.Resumes != "":
		h.s(`<strong class="status status-answered">answered — resumes `)
		h.t(r.Resumes)
		h.s(`</strong> · `)
	}
	h.s(`asked by `)
	h.t(r.Who)
	h.s(` `)
	h.since(r)
	h.s(` · waits on `)
	h.t(r.What)
	h.machineWhere(r.Machine, r.Where)
	h.s(`</span>`)
	h.chips(r.Headers)
	h.s("\n</a></li>")
}

// rowStart opens a row of a list, up to its prompt's text.
func (h *html) rowStart(href string) {
	h.s("\n<li><a class=\"session\" href=\"")
	h.url(href)
	h.s("\">\n<span class=\"prompt\">")
}

// since writes when a row started waiting, or was updated, which the
// page's script keeps saying in words.
func (h *html) since(r SessionRow) {
	h.s(`<time datetime="`)
	h.t(rfc3339(r.Since))
	h.s(`" data-ago title="`)
	h.t(pageStamp(r.Since))
	h.s(`">`)
	h.t(r.Age)
	h.s(`</time>`)
}

// chips writes a row's headers.
func (h *html) chips(headers []string) {
	h.s("\n<span class=\"chips\">")
	for _, c := range headers {
		h.s(`<span class="chip">`)
		h.t(c)
		h.s(`</span>`)
	}
	h.s(`</span>`)
}

// others writes the sessions that wait on nothing, and where they are.
func (h *html) others(d HomeData) {
	h.s("\n<section id=\"others\" class=\"panel\">\n<h2>Other sessions</h2>")
	if len(d.Others) == 0 {
		h.s("\n<p class=\"hint\">None yet.</p>")
	} else {
		h.s("\n<ul class=\"sessions\">")
		for _, r := range d.Others {
			h.rowStart(r.Href)
			h.orNoPrompt(r.Prompt)
			h.s("</span>\n<span class=\"meta\"><strong class=\"status status-")
			h.t(r.StatusClass)
			h.s(`">`)
			h.t(r.Status)
			h.s(`</strong> · updated `)
			h.since(r)
			h.machineWhere(r.Machine, r.Where)
			h.s("</span>\n</a></li>")
		}
		h.s("\n</ul>")
		if d.MoreOthers != 0 {
			h.s(`<p class="hint">… and `)
			h.t(Thousands(d.MoreOthers))
			h.s(` older (askuser sessions lists them all).</p>`)
		}
	}
	h.s("\n<p class=\"hint\">")
	if d.Store != "" {
		h.s(`Sessions of every machine in the team store <code>`)
		h.t(d.Store)
		h.s(`</code>; this machine's files in <code>`)
		h.t(d.Dir)
		h.s(`</code>.`)
	} else {
		h.s(`Sessions in <code>`)
		h.t(d.Dir)
		h.s(`</code>.`)
	}
	h.s("</p>\n</section>\n")
}
