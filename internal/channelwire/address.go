package channelwire

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// AddressFile is where askuser serve leaves its address, token included,
// in the state directory it serves: a run's --notify-cmd and the chat
// channels then link to the session's page (ASKUSER_INBOX_URL, without
// the token: InboxLink). It is the user's own (0600), like the sessions
// beside it, which the token guards no more than the file. askuser serve
// writes it; this file reads it.
const AddressFile = "serve.url"

// MaxAddressBytes bounds what is read of serve.url: an address and its
// token.
const MaxAddressBytes = 4 << 10

// ServedAt is the address askuser serve left in stateDir, token included,
// or nil when none serves it. It is read through statefile: a FIFO there
// is never waited on.
func ServedAt(stateDir string) *url.URL {
	if stateDir == "" {
		return nil
	}
	b, err := statefile.ReadFile(filepath.Join(stateDir, AddressFile), MaxAddressBytes)
	if err != nil {
		return nil
	}
	u, err := url.Parse(strings.TrimSpace(string(b)))
	if err != nil || u.Scheme != "http" || u.Query().Get("token") == "" {
		return nil
	}
	return u
}

// InboxURL is the page of session id in the askuser serve that serves
// stateDir, token included, or "" when none does: for this machine's own
// terminal only.
func InboxURL(stateDir, id string) string {
	if id == "" {
		return ""
	}
	u := ServedAt(stateDir)
	if u == nil {
		return ""
	}
	u.Path = "/s/" + id
	return u.String()
}

// InboxLink is the page at path ("s/ID"; "" is the first page) of the
// askuser serve that serves stateDir, without its token, or "" when none
// serves it. Chat messages and notifications carry it: whatever they
// carry, a third party's servers (and everyone in the chat) see, and the
// token answers every question. A browser that opened serve's printed URL
// once holds the cookie that opens the page; another is told to open that
// URL first.
func InboxLink(stateDir, path string) string {
	u := ServedAt(stateDir)
	if u == nil {
		return ""
	}
	u.Path, u.RawQuery = "/"+path, ""
	return u.String()
}

// SetLink is the inbox page that shows registered set e: its session's,
// or, for a set asked outside a session (askuser ask, mcp, hook), its own.
func SetLink(stateDir string, e session.Entry) string {
	if e.Session == "" {
		return InboxLink(stateDir, "q/"+e.Key)
	}
	return InboxLink(stateDir, "s/"+e.Session)
}
