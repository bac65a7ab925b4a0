package frontend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/fileread"
)

// An answers file is a few KB of YAML written by hand; the limits below are
// far above that and far below what makes goccy/go-yaml slow. goccy's parser
// is quadratic in nesting depth (a 100 KB line of "[" took 82 s and 15 GB)
// and in the entries of one mapping (each key recurses and copies the rest),
// and its scanner costs about a microsecond a token, so the file's size
// bounds the time and the depth and item limits keep the quadratic terms
// small: the worst file within them takes under 0.1 s of CPU and 60 MB of
// allocation (BenchmarkLoadFileWorst), about a thousand times a normal
// file. Everything is checked before the parser runs, in one pass over
// goccy's own tokens, so quotes, comments and block scalars are read
// exactly as the parser will read them.
const (
	// MaxFileBytes is the largest answers file read.
	MaxFileBytes = 64 << 10
	// MaxFileDepth is how deeply lists and mappings may nest; a valid
	// answers file needs 4 (the file, answers:, {select: ...}, [labels]).
	MaxFileDepth = 16
	// MaxFileItems is the most entries in one mapping (so the most
	// questions answered), items in one list, or YAML documents.
	MaxFileItems = 256
	// MaxFileScalarBytes is the longest key, label or free text, in bytes;
	// free text is cut to ask.MaxFreeTextChars characters anyway.
	MaxFileScalarBytes = 8 << 10
)

// readAnswers reads at most MaxFileBytes+1 bytes of the answers file,
// which may be a pipe (fileread.Read), and returns its size
// (fileread.Unknown for a pipe). A path that cannot be read as a file
// (missing, a directory, a device, a pipe that never ends, not readable)
// is an error naming it; its content is judged by parseFile.
func readAnswers(ctx context.Context, path string) (data []byte, size int64, err error) {
	data, size, err = fileread.ReadContext(ctx, path, MaxFileBytes, fileread.PipeTimeout)
	var nf *fileread.NotFileError
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, 0, err // a signal, not the file
	case errors.As(err, &nf):
		return nil, 0, fmt.Errorf("read answers file: %w; give the path of a YAML file (see testdata/answers.yaml)", err)
	case err != nil:
		return nil, 0, fmt.Errorf("read answers file: %w", err)
	}
	return data, size, nil
}

func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d bytes (%.1f MiB)", n, float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes (%d KiB)", n, n>>10)
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF32LE = []byte{0xFF, 0xFE, 0, 0}
	bomUTF32BE = []byte{0, 0, 0xFE, 0xFF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// text checks that data, the start of a file of size bytes (-1: unknown,
// a pipe), is a UTF-8 file within the size limit and returns it without a
// UTF-8 byte-order mark (which goccy would keep as part of the first key).
// ok is false after reporting why it is not.
func (p *fileParser) text(data []byte, size int64) (out []byte, ok bool) {
	if size > MaxFileBytes || len(data) > MaxFileBytes {
		total := "it is " + sizeText(max(size, int64(len(data))))
		if size < 0 {
			total = "more than " + sizeText(MaxFileBytes) + " arrived" // from a pipe
		}
		p.add(offsetPos(data, min(len(data), MaxFileBytes)),
			"the file passes the %d KiB limit here: %s, and an answers file is a few KB of YAML; is this the right file?",
			MaxFileBytes>>10, total)
		return nil, false
	}
	saveAs := "; save it as UTF-8 (in PowerShell: Set-Content -Encoding utf8)"
	switch {
	case bytes.HasPrefix(data, bomUTF32LE), bytes.HasPrefix(data, bomUTF32BE):
		p.add(position{1, 1}, "the file is UTF-32 (it starts with a UTF-32 byte-order mark)%s", saveAs)
		return nil, false
	case bytes.HasPrefix(data, bomUTF16LE), bytes.HasPrefix(data, bomUTF16BE):
		p.add(position{1, 1}, "the file is UTF-16 (it starts with a UTF-16 byte-order mark)%s", saveAs)
		return nil, false
	}
	data = bytes.TrimPrefix(data, bomUTF8)
	if i := bytes.IndexByte(data, 0); i >= 0 {
		if len(data) >= 2 && (data[0] == 0) != (data[1] == 0) {
			p.add(offsetPos(data, i), "NUL byte: the file looks like UTF-16 without a byte-order mark%s", saveAs)
		} else {
			p.add(offsetPos(data, i), "NUL byte: an answers file is YAML text (is this a binary file?)")
		}
		return nil, false
	}
	if !utf8.Valid(data) {
		i := invalidUTF8(data)
		p.add(offsetPos(data, i), "invalid UTF-8 (byte 0x%02x): the file must be UTF-8 text%s", data[i], saveAs)
		return nil, false
	}
	return data, true
}

// invalidUTF8 is the offset of the first byte that is not valid UTF-8.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// offsetPos is the line and column (in characters, from 1) of byte i.
func offsetPos(data []byte, i int) position {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	return position{bytes.Count(data[:start], []byte{'\n'}) + 1, utf8.RuneCount(data[start:i]) + 1}
}
