// Package page writes the pages of askuser's web side as HTML: the card
// page of --frontend web and its cards, and askuser serve's inbox, its
// sessions' pages and the page of a set asked outside a session, in one
// layout (Layout, Render), with their embedded CSS and JavaScript
// (ServeAsset), and the pages that move a browser to the server's own
// name (Home). It knows nothing of HTTP, stores or sessions: package inbox
// builds the plain views each page renders (data.go, view.go) from its
// state, and serves what this package writes.
//
// The pages are written by Go code (html.go, card.go, pages.go), not
// html/template: its executor calls methods by name through reflection,
// which makes the linker keep every exported method of every type askuser
// can reach, in every askuser process, a hook's included
// (docs/development.md). The
// markup is what the templates wrote, byte for byte (checked on 20,000
// pages of hostile values when they were replaced), and every value goes
// out through the escapers html/template chose for its place:
//
//   - text and quoted attribute values: esc (html/template's htmlEscaper);
//   - a whole URL in href or action: url, which refuses a scheme other
//     than http, https and mailto, percent-encodes what a URL cannot
//     hold, then escapes for the attribute (urlFilter, urlNormalizer,
//     attrEscaper); after url= in a meta refresh: metaURL, the same but
//     for the percent-encoding (urlFilter, attrEscaper).
//
// Only the page's own markup is written raw (the s method).
//
// Invariants: every value a page shows went through ask.Display (the
// views do that) and is then escaped for its place; model text never
// becomes markup, and a link can never run script.
package page
