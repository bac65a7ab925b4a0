package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdGen writes a file from pieces, for inputs too big or too binary to
// keep in a script (a 1 MiB header, a 10 MB line, 100,000 brackets):
//
//	gen FILE PIECE...
//
// A piece COUNT*TEXT is TEXT repeated COUNT times; any other piece is
// itself. In a piece, \xHH is the byte HH and nothing else is unescaped, so
// JSON escapes such as \u200b reach the file as written.
func cmdGen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: gen FILE PIECE...")
	}
	var b bytes.Buffer
	for _, piece := range args[1:] {
		count := 1
		if m := repeatPiece.FindStringSubmatch(piece); m != nil {
			count, _ = strconv.Atoi(m[1])
			piece = m[2]
		}
		text := hexByte.ReplaceAllFunc([]byte(piece), func(h []byte) []byte {
			v, _ := strconv.ParseUint(string(h[2:]), 16, 8)
			return []byte{byte(v)}
		})
		b.Write(bytes.Repeat(text, count))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
}

var (
	repeatPiece = regexp.MustCompile(`^([0-9]+)\*(.*)$`)
	hexByte     = regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)
)
