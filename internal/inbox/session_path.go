package inbox

import (
	"net/http"

	"github.com/askuser/askuser/internal/session"
)

// loadSession loads the session a page's path names ({id}): a whole
// session id, as the inbox's links give it, never a prefix or anything
// else that is not one.
func (in *Inbox) loadSession(r *http.Request) (*session.Session, error) {
	id, err := session.ParseID(r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return in.store.Load(string(id))
}
