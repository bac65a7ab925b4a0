package prompt

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkKeyDecoderByteByByte feeds input one byte per read, as a slow
// link or a long paste can deliver it: "runes" is n printable bytes (the
// baseline), "csi" an escape sequence ESC [ with n parameter bytes before
// its final byte, which waits unfinished through n reads. Each read of the
// unfinished sequence should cost what a rune's does, so the two stay
// within a constant ratio as n grows; re-reading it from its start at
// every read made the ratio grow with n. Run:
//
//	go test -run '^$' -bench KeyDecoderByteByByte ./frontend/
func BenchmarkKeyDecoderByteByByte(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 13} {
		for _, kind := range []string{"runes", "csi"} {
			in := []byte(strings.Repeat("1", n))
			if kind == "csi" {
				in = []byte("\x1b[" + strings.Repeat("1", n) + "~")
			}
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				for b.Loop() {
					var d keyDecoder
					for i := range in {
						d.feed(in[i : i+1])
					}
					if d.hasPending() {
						b.Fatal("input left pending")
					}
				}
			})
		}
	}
}
