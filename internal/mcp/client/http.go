package client

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is a streamable HTTP connection to cfg.URL that sends the
// configured headers and bounds what it reads: a JSON reply to
// maxMessage bytes, one server-sent event to maxMessage bytes.
func httpTransport(cfg ServerConfig, maxMessage int, raw *rawSchemas) mcp.Transport {
	base := http.DefaultTransport.(*http.Transport).Clone()
	client := &http.Client{Transport: &headerRoundTripper{base: base, headers: cfg.Headers, limit: int64(maxMessage), raw: raw}}
	return &mcp.StreamableClientTransport{
		Endpoint:     cfg.URL,
		HTTPClient:   client,
		MaxRetries:   2,
		MaxEventSize: maxMessage,
	}
}

// headerRoundTripper adds the configured headers to every request and
// wraps every reply's body.
type headerRoundTripper struct {
	base    http.RoundTripper
	headers map[string]string
	limit   int64
	raw     *rawSchemas
}

func (h *headerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	// A JSON reply is one message: bounded. An event stream lives as long
	// as the session; the SDK bounds each of its events.
	limit := int64(-1)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		limit = h.limit
	}
	resp.Body = &boundedBody{r: resp.Body, left: limit, limit: limit, tap: h.raw.tap()}
	return resp, nil
}

// errTooLarge is what reading a reply past the bound gives.
var errTooLarge = errors.New("the server's reply is too large")

// boundedBody reads a reply body, failing past its limit (-1: none), and
// shows the tap what passes.
type boundedBody struct {
	r     io.ReadCloser
	left  int64
	limit int64
	tap   *rawTap
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.limit >= 0 {
		if b.left <= 0 {
			var one [1]byte
			if n, err := b.r.Read(one[:]); n == 0 && err != nil {
				return 0, err // the reply ended right at the bound
			}
			return 0, fmt.Errorf("%w (more than %d bytes)", errTooLarge, b.limit)
		}
		if int64(len(p)) > b.left {
			p = p[:b.left]
		}
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if n > 0 && b.tap != nil {
		b.tap.Write(p[:n])
	}
	if err != nil && b.tap != nil {
		b.tap.Flush()
	}
	return n, err
}

func (b *boundedBody) Close() error { return b.r.Close() }
