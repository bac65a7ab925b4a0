package inbox

import (
	"net/http"
	"strconv"

	"github.com/askuser/askuser/ask"
)

// serveDetail answers a card's "open the whole input": the detail, made
// safe to show, as plain text (the guard's nosniff keeps it text).
func serveDetail(w http.ResponseWriter, req ask.Request) {
	if req.Detail == "" {
		refuse(w, http.StatusNotFound, "this question set has no details to show")
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	text := ask.DisplayBlock(req.Detail) + "\n"
	w.Header().Set("Content-Length", strconv.Itoa(len(text)))
	_, _ = w.Write([]byte(text))
}
