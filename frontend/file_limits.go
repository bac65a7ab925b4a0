package frontend

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
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

// pipeReadTimeout bounds the reading of an answers file that is a pipe
// (--answers /dev/stdin, <(…), a FIFO): its writer is a program printing a
// few KB of YAML (cat, a heredoc, a generator, a decrypting tool), which
// takes milliseconds, so 10 s is generous, and a FIFO that nobody writes to
// ends in an error naming it instead of a hang. A regular file has no such
// bound: it cannot block. A variable so that tests can shorten it.
var pipeReadTimeout = 10 * time.Second

// readAnswers reads at most MaxFileBytes+1 bytes of a regular file or a
// pipe, and returns its size (-1 for a pipe, whose size is unknown). A
// path that cannot be read as a file (missing, a directory, a device, a
// socket, not readable) is an error naming it; its content is judged by
// parseFile.
func readAnswers(path string) (data []byte, size int64, err error) {
	name := ask.Display(path)
	// Stat before opening: opening a device could block or have effects.
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read answers file: %w", err)
	}
	if info.Mode()&fs.ModeNamedPipe != 0 {
		data, err = readPipe(path, name, pipeReadTimeout)
		return data, -1, err
	}
	if err := notRegular(name, info.Mode()); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, openError(name, err)
	}
	defer f.Close()
	// Read one byte past the limit, to say where the file passes it, and
	// never more, whatever the file's size or however it grows.
	data = make([]byte, MaxFileBytes+1)
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, 0, fmt.Errorf("read answers file %s: %w", name, err)
	}
	return data[:n], max(info.Size(), int64(n)), nil
}

// openError words a failure to open the answers file.
func openError(name string, err error) error {
	if os.IsPermission(err) {
		return fmt.Errorf("read answers file: %w; make %s readable by this user", err, name)
	}
	return fmt.Errorf("read answers file: %w", err)
}

// pipeTimeout is the error of a pipe that did not end within timeout,
// after n bytes.
func pipeTimeout(name string, timeout time.Duration, n int) error {
	if n == 0 {
		return fmt.Errorf("read answers file: nothing arrived on %s within %s; is anything writing to it? "+
			"If its writer needs longer, have it write the answers to a file and give that file's path", name, timeout)
	}
	return fmt.Errorf("read answers file: %s did not end within %s (%d bytes arrived); its writer must close it when done, "+
		"or write the answers to a file and give that file's path", name, timeout, n)
}

// notRegular explains a path that is not a regular file.
func notRegular(name string, mode fs.FileMode) error {
	var what string
	switch {
	case mode.IsRegular():
		return nil
	case mode.IsDir():
		what = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	case mode&fs.ModeDevice != 0:
		what = "a device"
	default:
		what = "not a regular file"
	}
	return fmt.Errorf("read answers file: %s is %s; give the path of a YAML file (see testdata/answers.yaml)", name, what)
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
