package agentloop

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// What both providers do on the wire: one POST with the official SDKs'
// retry rules, then a server-sent event stream. The two providers share
// this code, so they retry alike (and the same tests hold both to them).

// statusError is a response the call ends with whose status is 400 or
// more. The error's wording comes from the callState that observe filled
// (status, body).
type statusError struct{ status int }

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d", e.status) }

// postJSON sends body to url with the SDKs' retries: a connection error
// or a retryable status (retryable: 408, 409, 429, 5xx, or x-should-retry)
// is tried again up to maxRetries times, after the wait the response asks
// for (askedWait; observe has already refused a wait over maxRetryAfter by
// marking the response x-should-retry: false) or else backoff's. Every
// attempt goes through observe, which records it in ctx's callState. It
// returns a response of status 200-399 with its body open, or an error:
// ctx's own when ctx ended, a *statusError, or the client's.
func postJSON(ctx context.Context, client *http.Client, url string, header http.Header, body []byte, maxRetries int) (*http.Response, error) {
	for n := 0; ; n++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header = header.Clone()
		res, err := observe(req, client.Do)
		if ctx.Err() != nil {
			if res != nil {
				res.Body.Close()
			}
			return nil, ctx.Err()
		}
		if n >= maxRetries || !(res == nil || retryable(res)) {
			if err != nil {
				return nil, err
			}
			if res.StatusCode >= 400 {
				res.Body.Close()
				return nil, &statusError{res.StatusCode}
			}
			return res, nil
		}
		wait := backoff(n)
		if res != nil {
			if w, ok := askedWait(res.Header); ok {
				wait = time.Duration(w.seconds * float64(time.Second))
			}
			res.Body.Close()
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// maxEventLine bounds one line of an event stream, as the SDKs bound it
// (32 MiB): a longer line is a malformed stream, not a reason to grow
// without end.
const maxEventLine = bufio.MaxScanTokenSize << 9

// sseReader reads server-sent events (the text/event-stream format):
// "data:" lines, joined by newlines, make one event's data, which a blank
// line ends, and an "event:" line names it; comments (":…") and other
// fields are skipped; an event without data is skipped; an event left
// unfinished when the stream ends is dropped, as the SDKs drop it.
type sseReader struct {
	sc *bufio.Scanner
	// name is the "event:" field of the event next returned last, "" if
	// it had none.
	name string
}

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxEventLine)
	return &sseReader{sc: sc}
}

// next returns the data of the next event, or io.EOF when the stream ended
// cleanly, or the read error. The event's name is then in s.name.
func (s *sseReader) next() ([]byte, error) {
	var data []byte
	s.name = ""
	for s.sc.Scan() {
		line := s.sc.Bytes()
		if len(line) == 0 {
			if len(data) > 0 {
				return data, nil
			}
			s.name = ""
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			data = append(append(data, value...), '\n')
		case "event":
			s.name = string(value)
		}
	}
	if err := s.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &malformedError{fmt.Errorf("an event line over %d bytes", maxEventLine)}
		}
		return nil, err
	}
	return nil, io.EOF
}
