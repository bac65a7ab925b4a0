package inbox

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestHeaderLimitIsTheDocumentedOne: a request whose header (request line
// and fields, through the blank line) is 16 KiB is read; one byte more is
// refused with 431. net/http allows 4 KiB over its MaxHeaderBytes, so the
// limit was about 20 KiB.
func TestHeaderLimitIsTheDocumentedOne(t *testing.T) {
	g := newCardRig(t)
	for _, tc := range []struct {
		size     int
		tooLarge bool
	}{{maxHeaderBytes - 1, false}, {maxHeaderBytes, false}, {maxHeaderBytes + 1, true}} {
		head := "GET / HTTP/1.1\r\nHost: " + g.host + "\r\nX-Pad: "
		end := "\r\n\r\n"
		req := head + strings.Repeat("a", tc.size-len(head)-len(end)) + end
		if len(req) != tc.size {
			t.Fatalf("built %d bytes, want %d", len(req), tc.size)
		}
		conn, err := net.Dial("tcp", g.host)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil {
			t.Fatalf("%d bytes: %v", tc.size, err)
		}
		if got := res.StatusCode == http.StatusRequestHeaderFieldsTooLarge; got != tc.tooLarge {
			t.Errorf("a header of %d bytes: status %d; refused as too large: %v, want %v", tc.size, res.StatusCode, got, tc.tooLarge)
		}
	}
}
