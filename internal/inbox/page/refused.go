package page

// Refused is the page a browser is shown when serve will not show it the
// one it asked for (no cookie yet, a wrong token, an answered set): the
// same header and stylesheet as every other page, the message in a panel,
// and no script, since a browser without the cookie may load nothing
// else. code is the HTTP status, for the title.
func Refused(code int, status, msg string) string {
	var h html
	h.top("askuser · "+status, status, false)
	h.s(`
<main id="main">
<section class="panel refused" data-code="`)
	h.n(code)
	h.s(`">
<p>`)
	h.t(msg)
	h.s(`</p>
</section>
</main>
</body>
</html>
`)
	return h.String()
}
