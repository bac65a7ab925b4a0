package mcp

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// When standard input ends, every request read before it is answered
// before askuser mcp exits. The SDK's connection, told of the end, cancels
// the calls under way and refuses to write their replies: initialize,
// initialized and tools/list piped in and closed got both replies in one
// run of ten. So guardLines keeps the end from the transport until the
// requests it passed on have their replies written:
//   - inFlight counts the requests read (an id and a method) until a
//     response with that id is written, or the host cancels the request
//     (notifications/cancelled, which gets no reply);
//   - a request askuser mcp sends the host (an elicitation form) cannot
//     be answered once the host's input has ended: each is answered, on
//     the host's behalf, with an error, so the call that waits on it ends
//     and its own reply is written;
//   - a call answered without waiting on a person (an answers file, the
//     recommended-option policy: ServeConfig.Instant) is answered as
//     usual; a question that waits on a person is withdrawn, since the
//     host that would read its answer has gone, and its call answered
//     with a result that says so (errInputEnded).
//
// A signal still ends everything at once: closing the transport releases
// the wait.

// errInputEnded is why a question is withdrawn when the host closes
// askuser mcp's standard input.
var errInputEnded = errors.New("the host closed askuser mcp's standard input (it went away), so the question was withdrawn")

// inFlight is what askuser mcp owes and is owed on its connection. Its
// methods do nothing on a nil one: lines guarded for no server.
type inFlight struct {
	mu sync.Mutex
	// calls are the requests read whose reply is not written, by id.
	calls map[string]bool
	// asked are the requests written to the host that it has not
	// answered, by id, with the id as written.
	asked map[string]json.RawMessage
	// changed is closed, and replaced, whenever either shrinks or asked
	// grows.
	changed chan struct{}
	closed  chan struct{}
	once    sync.Once
	// ended is closed when the host's input ends.
	ended   chan struct{}
	endOnce sync.Once
}

func newInFlight() *inFlight {
	return &inFlight{calls: map[string]bool{}, asked: map[string]json.RawMessage{},
		changed: make(chan struct{}), closed: make(chan struct{}), ended: make(chan struct{})}
}

// envelope is what inFlight reads of a message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// idKey is a JSON-RPC id as a map key: the same id written as 7 or 7.0, or
// as "x", is one key. "" for a null or missing id.
func idKey(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return "s" + v
	case float64:
		return "n" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

// read notes a message read from the host, as the transport gets it.
func (f *inFlight) read(msg []byte) {
	if f == nil {
		return
	}
	var e envelope
	if json.Unmarshal(msg, &e) != nil {
		return
	}
	id := idKey(e.ID)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case e.Method == "notifications/cancelled":
		f.settle(f.calls, idKey(e.Params.RequestID))
	case e.Method != "" && id != "":
		f.calls[id] = true
	case e.Method == "" && id != "":
		if _, ok := f.asked[id]; ok {
			delete(f.asked, id)
			f.bump()
		}
	}
}

// wrote notes a line written to the host.
func (f *inFlight) wrote(line []byte) {
	if f == nil {
		return
	}
	var e envelope
	if json.Unmarshal(line, &e) != nil {
		return
	}
	id := idKey(e.ID)
	if id == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if e.Method != "" {
		f.asked[id] = append(json.RawMessage(nil), e.ID...)
		f.bump()
		return
	}
	f.settle(f.calls, id)
}

func (f *inFlight) settle(m map[string]bool, id string) {
	if m[id] {
		delete(m, id)
		f.bump()
	}
}

func (f *inFlight) bump() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// close releases drain: the transport is closed.
func (f *inFlight) close() {
	if f != nil {
		f.once.Do(func() { close(f.closed) })
	}
}

// drain waits, once the host's input has ended, until every request read
// has its reply, answering on the host's behalf each request askuser mcp
// sent it (into pass, which the transport reads), or until the transport
// is closed. A nil inFlight returns at once.
func (f *inFlight) drain(pass io.Writer) {
	if f == nil {
		return
	}
	f.endOnce.Do(func() { close(f.ended) })
	for {
		f.mu.Lock()
		asked := f.asked
		f.asked = map[string]json.RawMessage{}
		owed, changed := len(f.calls), f.changed
		f.mu.Unlock()
		for _, id := range asked {
			line, _ := json.Marshal(struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   jsonrpc.Error   `json:"error"`
			}{"2.0", id, jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: "the host closed askuser mcp's standard input, so it cannot answer this request"}})
			if _, err := pass.Write(append(line, '\n')); err != nil {
				return
			}
		}
		if owed == 0 && len(asked) == 0 {
			return
		}
		select {
		case <-changed:
		case <-f.closed:
			return
		}
	}
}
