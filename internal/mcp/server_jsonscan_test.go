package mcp

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// jsonScan must say what decoding says (jsonStatus) about any bytes that
// are not only white space (the guard never holds those), fed in any
// pieces.
func FuzzJSONScanAgreesWithDecoder(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"]}`, `[`, `{"a"`, `{"a":`,
		`{"a":1,`, `[1,]`, `{"a":1}}`, `01`, `-`, `1.`, `1e`, `1e+`, `-0.0E-0`, `tru`, `nul l`, `"ab`, "\"a\tb\"", `"\x"`,
		`"\u12"`, `{} {}`, `1 2`, `12`, `[1 2]`, `{"a" 1}`, `{1:2}`, "{\n \"a\": [\n 1,\n 2\n ]\n}", `"\u00zz"`, "\xff", `"\xff"`,
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, b []byte, cut uint8) {
		if len(bytes.TrimSpace(b)) == 0 {
			return
		}
		var s jsonScan
		i := min(int(cut), len(b))
		s.feed(b[:i])
		s.feed(b[i:])
		want, _ := jsonStatus(b)
		if got := s.status(); got != want {
			t.Errorf("%q: jsonScan says %d, decoding %d", b, got, want)
		}
	})
}

// TestJSONScanAgreesWithDecoder runs the fuzz property on many strings
// made of JSON's own pieces, cut at every place a line could end: fuzzing
// this package builds the provider SDKs with instrumentation, which is
// slow, so the property runs here on every test run too.
func TestJSONScanAgreesWithDecoder(t *testing.T) {
	pieces := []string{`{`, `}`, `[`, `]`, `,`, `:`, `"a"`, `"\u00e9`, `"\`, `\n"`, `"`, `0`, `12`, `-`, `.`, `5`, `e`, `E+`, `-3`,
		`true`, `tr`, `ue`, `null`, `nul`, `false`, " ", "\n", "\t", "x", "\x01", "\xff", `"\q"`, `01`, `1.5e-7`}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b []byte
		for range 1 + rnd.IntN(12) {
			b = append(b, pieces[rnd.IntN(len(pieces))]...)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		want, _ := jsonStatus(b)
		for cut := 0; cut <= len(b); cut++ {
			var s jsonScan
			s.feed(b[:cut])
			s.feed(b[cut:])
			if got := s.status(); got != want {
				t.Fatalf("%q cut at %d: jsonScan says %d, decoding %d", b, cut, got, want)
			}
		}
	}
}
