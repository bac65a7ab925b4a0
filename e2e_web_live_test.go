// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/chromedp"
)

// Acting on a live page. askuser's pages redraw a block whenever the event
// stream says something changed (page.js merge): an open card is kept as
// it is, but a summary, a list or a Progress box is replaced by a new node.
// A chromedp action finds its node by selector, then uses the node's id
// in later calls; when the block was redrawn in between, the browser no
// longer knows that id. So every action on these pages is taken through
// click, typeInto and focus (retried from the query when the node went
// away), text is read with pageText (found and read in one step, in the
// page), and a test waits for the state its next step needs instead of
// assuming the page is already there.

// staleNodeErrors are the DevTools protocol's words for a node id that no
// longer names a node of the document.
var staleNodeErrors = []string{
	"Could not find node with given id",
	"No node with given id found",
	"Node is detached from document",
}

// staleNode reports whether err is the browser saying the node an action
// found was removed before the action used it.
func staleNode(err error) bool {
	var e *cdproto.Error
	if !errors.As(err, &e) {
		return false
	}
	for _, msg := range staleNodeErrors {
		if strings.Contains(e.Message, msg) {
			return true
		}
	}
	return false
}

// live runs an action that finds its node by selector again, from the
// query, while it fails only because a redraw replaced the node it found.
// The node's id is used before the action's effect (a click's mouse
// event, a key), so a retried action has not half happened. The browser's
// context bounds the retries.
func live(a chromedp.Action[chromedp.Void]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for {
			if _, err := a(ctx, tg); !staleNode(err) {
				return chromedp.Void{}, err
			}
		}
	}
}

// click clicks the first element sel matches, on a live page.
func click(sel string) chromedp.Action[chromedp.Void] { return live(chromedp.Click(css(sel))) }

// typeInto types text into the first element sel matches, on a live page.
func typeInto(sel, text string) chromedp.Action[chromedp.Void] {
	return live(chromedp.SendKeys(css(sel), text))
}

// focus focuses the first element sel matches, on a live page.
func focus(sel string) chromedp.Action[chromedp.Void] { return live(chromedp.Focus(css(sel))) }

// pageText returns the text of the first element sel matches, found and
// read in one step in the page, once it holds every one of want: a live
// page may reach the state wanted a redraw after the state before. After
// waitLimit it returns the text seen last ("" for no element), for the
// test to report what is missing.
func pageText(t *testing.T, ctx context.Context, sel string, want ...string) string {
	t.Helper()
	quoted, _ := json.Marshal(sel)
	read := chromedp.Evaluate[string](`(e => e ? e.innerText : "")(document.querySelector(` + string(quoted) + `))`)
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(50 * time.Millisecond) {
		text, err := chromedp.Run(ctx, read)
		if err == nil && containsAll(text, want) {
			return text
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Fatalf("reading %s: %v", sel, err)
			}
			return text
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// redrawPage draws a link, a button and a text box again the first time
// an action looks at each (chromedp's visibility check reads
// offsetWidth): the node the action found is gone when it goes on to use
// it, as when an event stream's update lands between the two.
const redrawPage = `<!doctype html><meta charset="utf-8"><title>redraw</title>
<main id="main">
<p id="summary"><a id="link" href="#done">← Inbox</a></p>
<p><button id="button" type="button">Count</button> <span id="count">0</span></p>
<p><input id="box" type="text"></p>
<p id="redraws">0</p>
</main>
<script>
let clicks = 0, redraws = 0;
document.addEventListener('click', e => {
  if (e.target.id === 'button') document.getElementById('count').textContent = ++clicks;
});
for (const id of ['link', 'button', 'box']) {
  const el = document.getElementById(id);
  Object.defineProperty(el, 'offsetWidth', {get() {
    const again = el.cloneNode(true);
    el.replaceWith(again);
    document.getElementById('redraws').textContent = ++redraws;
    return again.offsetWidth;
  }});
}
</script>`

// TestWebLiveActions: a click, a typed text and a followed link each land
// once, on the new node, when the node their query found was redrawn
// before they used it.
func TestWebLiveActions(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, redrawPage)
	}))
	defer srv.Close()
	ctx := newBrowser(t, 800, 600)
	err := chromedp.Do(ctx, chromedp.Navigate(srv.URL), click(`#button`), typeInto(`#box`, "typed"), click(`#summary a`))
	if err != nil {
		t.Fatalf("acting on nodes that were redrawn: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.getElementById('count').textContent,
		document.getElementById('box').value, location.hash, document.getElementById('redraws').textContent]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1", "typed", "#done", "3"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("clicks, typed text, address and redraws: %q, want %q", got, want)
	}
	if text := pageText(t, ctx, `#count`, "1"); text != "1" {
		t.Errorf("pageText read %q", text)
	}
}
