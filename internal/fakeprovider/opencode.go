package fakeprovider

import (
	"net/http"
	"strings"
)

// What OpenCode (1.18.33, `opencode run`) sends besides model calls: at the
// first prompt of a session it asks the session's model, at the same time
// as the real call and without tools, for a title ("You are a title
// generator…", then "Generate a title for this conversation:" and the
// prompt). Both race for the script's next turn, so the title request is
// answered apart, like Claude Code's connection checks: it never takes a
// scripted turn and is kept in SideRequests. `run --title T` sends none.

// TitleReply is what the OpenAI fake answers OpenCode's title request.
const TitleReply = "Fake title"

// openCodeTitle is the opening of the system prompt of OpenCode's title
// request.
const openCodeTitle = "You are a title generator."

// openCodeSide answers req when it is OpenCode's title request and reports
// whether it was.
func (s *Server) openCodeSide(w http.ResponseWriter, r *http.Request, req Request) bool {
	if _, ok := s.wire.(openaiWire); !ok || req.Method != http.MethodPost || !s.wire.pathOK(req.Path) {
		return false
	}
	if s.wire.decode(&req) != nil || len(req.Tools) > 0 || !strings.HasPrefix(req.System, openCodeTitle) || !req.Stream {
		return false
	}
	n := s.recordSide(req)
	s.wire.stream(newSSE(w, r, s.wire.requestIDHeader(), n), Turn{Text: TitleReply}, n, req)
	return true
}
