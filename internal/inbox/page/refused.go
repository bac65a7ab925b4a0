package page

// Refused is the page a browser is shown when serve will not show it the
// one it asked for (no cookie yet, a wrong token, an answered set): the
// same header and stylesheet as every other page, the message in a panel,
// and no script, since a browser without the cookie may load nothing
// else. code is the HTTP status, for the title.
func Refused(code int, status, msg string) string {
	var h html
	h.s(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>askuser · `)
	h.t(status)
	h.s(`</title>
<link rel="stylesheet" href="/assets/page.css">
</head>
<body>
<header class="top">
<a class="brand" href="/">askuser</a>
<span class="heading">`)
	h.t(status)
	h.s(`</span>
</header>
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
