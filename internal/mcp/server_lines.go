package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/askuser/askuser/ask"
)

// maxLineBytes bounds one message on standard input: the SDK's own bound
// (16 MiB), enforced here, where a longer line is answered and skipped.
const maxLineBytes = 16 << 20

// The SDK's stdio transport ends the connection at the first message it
// cannot decode: a line of text, a bare number, a batch array or
// "jsonrpc":"1.0" stopped askuser mcp, and every call under way with it (a
// person halfway through answering). A JSON-RPC server answers such a
// message with an error and goes on. guardLines stands between standard
// input and the transport: it reads one line at a time (MCP's stdio
// messages are newline-delimited and hold no newline), hands on every line
// the SDK decodes (jsonrpc.DecodeMessage, the SDK's own decoder, decides),
// and answers the others itself:
//   - -32700 (parse error, id null) for a line that is not JSON, or longer
//     than maxLineBytes;
//   - -32600 (invalid request, with the message's id when it has a valid
//     one, else null) for JSON that is not a JSON-RPC 2.0 message: a batch
//     (MCP removed batching in 2025-06-18), a number or a string, a
//     "jsonrpc" other than "2.0", a bad id, or no method, result or error.
//
// A message shaped as a response (a result or an error, no method) that is
// invalid is dropped with a line on the log, never answered: answering a
// response could start an endless exchange of errors.

// guardLines returns what the transport reads instead of in: the messages
// of in that the SDK accepts. Its replies go to out, which the transport
// writes too (a syncWriter keeps their lines whole). Closing what it
// returns closes in.
func guardLines(in io.ReadCloser, out *syncWriter, log io.Writer) io.ReadCloser {
	pr, pw := io.Pipe()
	g := &lineGuard{out: out, log: log, pass: pw}
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for n := 1; ; n++ {
			line, tooLong, err := readLine(br, maxLineBytes)
			ok := true
			switch {
			case tooLong:
				g.drop(n - 1)
				out.reply(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: line %d is longer than %d bytes and was skipped; send each message on one line of at most that", n, maxLineBytes))
			case err == io.EOF && len(line) == 0:
				n-- // no line after the last newline
			default:
				ok = g.line(n, line)
			}
			if !ok {
				return // the transport closed
			}
			if werr := out.failed(); werr != nil {
				// Standard output is gone: so is the connection.
				pw.CloseWithError(werr)
				return
			}
			if err != nil {
				g.drop(n)
				if err == io.EOF {
					// Every request read is answered first (server_drain.go).
					out.flight.drain(pw)
					err = nil
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return guarded{pr, in, out.flight}
}

// guarded is the transport's end of guardLines.
type guarded struct {
	*io.PipeReader
	in     io.Closer
	flight *inFlight
}

func (g guarded) Close() error {
	g.flight.close()
	g.PipeReader.Close()
	return g.in.Close()
}

// lineGuard takes the lines of standard input one by one. A message is one
// line, but the SDK read a JSON value spread over lines too, so a line
// that begins a value and ends before it does is held until the value is
// whole; when the next line makes it invalid instead, the lines held are
// answered as not JSON and that line starts afresh, so a broken line
// never takes a good one with it. Each line is read once (jsonScan), so a
// value over many lines costs what it would on one.
type lineGuard struct {
	out  *syncWriter
	log  io.Writer
	pass *io.PipeWriter
	// held is an unfinished value, begun at line first; scan has read it.
	held  []byte
	first int
	scan  jsonScan
}

// line takes line n; it reports false once the transport is closed.
func (g *lineGuard) line(n int, line []byte) bool {
	if len(g.held) > 0 {
		// Only the new line is read: the scanner has read what is held.
		g.scan.feed([]byte{'\n'})
		g.scan.feed(line)
		joined := append(append(g.held, '\n'), line...)
		switch whole := g.scan.status(); {
		case whole == valueWhole:
			g.held = nil
			return g.handle(g.first, n, bytes.TrimSpace(joined))
		case whole == valueUnfinished && len(joined) <= maxLineBytes:
			g.held = joined
			return true
		}
		g.drop(n - 1)
	}
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return true
	}
	switch whole, err := jsonStatus(msg); whole {
	case valueWhole:
		return g.handle(n, n, msg)
	case valueUnfinished:
		g.held, g.first = bytes.Clone(msg), n
		g.scan = jsonScan{}
		g.scan.feed(msg)
	default:
		g.out.reply(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: %s is not JSON (%v); send one JSON-RPC 2.0 message per line", lines(n, n), err))
	}
	return true
}

// drop answers the unfinished value held, if any, which line last did not
// finish.
func (g *lineGuard) drop(last int) {
	if len(g.held) == 0 {
		return
	}
	g.out.reply(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: %s: the start of a JSON value that never ends; send one JSON-RPC 2.0 message per line", lines(g.first, last)))
	g.held = nil
}

// handle passes a whole JSON value on, or answers it.
func (g *lineGuard) handle(first, last int, msg []byte) bool {
	if !check(msg, lines(first, last), g.out, g.log) {
		return true
	}
	g.out.flight.read(msg)
	_, err := g.pass.Write(append(msg, '\n'))
	return err == nil
}

// lines names lines first to last for a message.
func lines(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// What jsonStatus finds.
const (
	valueWhole = iota
	valueUnfinished
	valueInvalid
)

// jsonStatus says whether b is one whole JSON value, the start of one, or
// neither (with why).
func jsonStatus(b []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v json.RawMessage
	switch err := dec.Decode(&v); {
	case err == io.ErrUnexpectedEOF:
		return valueUnfinished, err
	case err != nil:
		return valueInvalid, err
	case len(bytes.TrimSpace(b[dec.InputOffset():])) > 0:
		var any any
		return valueInvalid, json.Unmarshal(b, &any) // "invalid character … after top-level value"
	}
	return valueWhole, nil
}

// readLine reads one line without its newline; a line longer than limit
// is read to its end and dropped (tooLong). err is io.EOF after the last
// line.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit+1 {
			tooLong, line = true, nil
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if err != bufio.ErrBufferFull {
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
		}
	}
}

// check reports whether msg, one whole JSON value (at where: "line 3"),
// is a message the SDK accepts; if not, it answers it (or logs a response
// it drops).
func check(msg []byte, where string, out *syncWriter, log io.Writer) bool {
	var fields map[string]json.RawMessage
	switch {
	case msg[0] == '[':
		out.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %s is a batch; MCP has had no batches since 2025-06-18: send each message on a line of its own", where))
		return false
	case json.Unmarshal(msg, &fields) != nil || fields == nil:
		out.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %s is %s, not a JSON-RPC 2.0 message; send an object such as %s", where, describe(msg), requestExample))
		return false
	}
	why := invalidWhy(fields)
	if why == "" {
		_, err := jsonrpc.DecodeMessage(msg)
		if err == nil {
			return true
		}
		why = "it cannot be decoded (" + cutText(err.Error(), 200) + ")"
	}
	_, hasMethod := fields["method"]
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if !hasMethod && (hasResult || hasError) {
		fmt.Fprintf(log, "askuser mcp: dropped %s of standard input, a response that is not valid: %s\n", where, why)
		return false
	}
	out.reply(fields["id"], jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %s: %s; a request is %s", where, why, requestExample))
	return false
}

// requestExample is a JSON-RPC request, for messages.
const requestExample = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`

// invalidWhy says why a JSON object is not a JSON-RPC 2.0 message, or ""
// if it looks like one.
func invalidWhy(f map[string]json.RawMessage) string {
	var version string
	if v, ok := f["jsonrpc"]; !ok {
		return `it has no "jsonrpc":"2.0"`
	} else if json.Unmarshal(v, &version) != nil || version != "2.0" {
		return fmt.Sprintf(`"jsonrpc" is %s, not "2.0"`, describe(v))
	}
	if id, ok := f["id"]; ok {
		var v any
		_ = json.Unmarshal(id, &v)
		switch v.(type) {
		case nil, string, float64:
		default:
			return fmt.Sprintf(`"id" is %s; give a string or a number`, describe(id))
		}
	}
	if m, ok := f["method"]; ok {
		var name string
		if json.Unmarshal(m, &name) != nil {
			return fmt.Sprintf(`"method" is %s; give the method's name as a string`, describe(m))
		}
		return ""
	}
	_, hasResult := f["result"]
	_, hasError := f["error"]
	if !hasResult && !hasError {
		return `it has no "method" (a request) and no "result" or "error" (a response)`
	}
	return ""
}

// describe words a JSON value for a message: a string quoted, anything
// else as written, either cut to ask.ExcerptChars characters.
func describe(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return ask.Excerpt(s)
	}
	if len(raw) <= ask.ExcerptChars {
		return string(raw)
	}
	cut := ask.ExcerptChars
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", raw[:cut], len(raw))
}

// syncWriter is standard output, shared by the transport and guardLines:
// one message per Write, whole. It keeps the first write error.
type syncWriter struct {
	mu  sync.Mutex
	w   io.WriteCloser
	err error
	// flight learns of each message written (one a Write); nil is a
	// writer nobody drains.
	flight *inFlight
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.w.Write(p)
	if err != nil && s.err == nil {
		s.err = err
	}
	s.flight.wrote(p)
	return n, err
}

// failed is the first error a write met, or nil.
func (s *syncWriter) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *syncWriter) Close() error { return s.w.Close() }

// reply writes an error response. id is the message's own id when it is a
// string or a number, else null.
func (s *syncWriter) reply(id json.RawMessage, code int64, message string) {
	var v any
	if json.Unmarshal(id, &v) != nil {
		v = nil
	}
	switch v.(type) {
	case string, float64:
	default:
		id = json.RawMessage("null")
	}
	line, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	_, _ = s.Write(append(line, '\n'))
}

// cutText shortens s to n characters, marking the cut (as the client's
// notes do).
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
