package frontend

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var limitTests = []struct {
	name, yaml, want string
}{
	{"too large", "answers:\n" + strings.Repeat("# a comment line\n", MaxFileBytes/17+1),
		"ci/answers.yaml:3856:10: the file passes the 64 KiB limit here: it is 65561 bytes (64 KiB), and an answers file is a few KB of YAML; is this the right file?"},
	{"nested lists", "answers:\n  Database: " + strings.Repeat("[", 60000),
		"ci/answers.yaml:2:27: lists and mappings nested more than 16 deep; an answers file needs 4 at most (answers: → a question → {select: [labels]}): look for a [ or { that is never closed"},
	{"nested flow mappings", "answers:\n  Database: " + strings.Repeat("{a: ", 20),
		"ci/answers.yaml:2:69: lists and mappings nested more than 16 deep; an answers file needs 4 at most (answers: → a question → {select: [labels]}): look for a [ or { that is never closed"},
	{"nested block lists", "answers:\n  Database:\n    " + strings.Repeat("- ", 20) + "x\n",
		"ci/answers.yaml:3:33: lists and mappings nested more than 16 deep; an answers file needs 4 at most (answers: → a question → {select: [labels]}): look for indentation or \"- \" that keeps growing"},
	{"nested by indentation", indented(20),
		"ci/answers.yaml:17:17: lists and mappings nested more than 16 deep; an answers file needs 4 at most (answers: → a question → {select: [labels]}): look for indentation or \"- \" that keeps growing"},
	{"too many entries", "answers:\n" + strings.Repeat("  Database: SQLite\n", MaxFileItems+1),
		"ci/answers.yaml:258:3: more than 256 entries in the mapping that starts at line 2; an answers file answers at most 256 questions, each with a few labels"},
	{"too many items", "answers:\n  Features: [" + strings.Repeat("a, ", MaxFileItems+1) + "a]\n",
		"ci/answers.yaml:2:780: more than 256 items in the list that starts at line 2; an answers file answers at most 256 questions, each with a few labels"},
	{"too many documents", strings.Repeat("---\n", MaxFileItems+1),
		"ci/answers.yaml:257:1: more than 256 YAML documents (--- lines); an answers file is one document"},
	{"long value", "answers:\n  Database: {other: \"" + strings.Repeat("é", MaxFileScalarBytes) + "\"}\n",
		`ci/answers.yaml:2:21: a value of 16384 bytes ("éééééééééééééééééééééééééééééééééééééééé"…); a key, label or free text may be at most 8192 bytes`},
	{"long key", strings.Repeat("k", MaxFileScalarBytes+1) + ": x\n",
		`ci/answers.yaml:1:1: a value of 8193 bytes ("kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"…); a key, label or free text may be at most 8192 bytes`},
	{"UTF-16 LE", "\xff\xfea\x00n\x00s\x00:\x00",
		"ci/answers.yaml:1:1: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8 (in PowerShell: Set-Content -Encoding utf8)"},
	{"UTF-16 BE", "\xfe\xff\x00a\x00n",
		"ci/answers.yaml:1:1: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8 (in PowerShell: Set-Content -Encoding utf8)"},
	{"UTF-32 LE", "\xff\xfe\x00\x00a\x00\x00\x00",
		"ci/answers.yaml:1:1: the file is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8 (in PowerShell: Set-Content -Encoding utf8)"},
	{"UTF-16 without a mark", "a\x00n\x00s\x00",
		"ci/answers.yaml:1:2: NUL byte: the file looks like UTF-16 without a byte-order mark; save it as UTF-8 (in PowerShell: Set-Content -Encoding utf8)"},
	{"NUL", "answers:\n  Database: SQ\x00Lite\n",
		"ci/answers.yaml:2:15: NUL byte: an answers file is YAML text (is this a binary file?)"},
	{"invalid UTF-8", "answers:\n  Datenbank: Größe\n  Database: SQ\xffLite\n",
		"ci/answers.yaml:3:15: invalid UTF-8 (byte 0xff): the file must be UTF-8 text; save it as UTF-8 (in PowerShell: Set-Content -Encoding utf8)"},
}

func TestFileLimits(t *testing.T) {
	for _, tt := range limitTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile(testPath, []byte(tt.yaml))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error:\n%.500v\nwant:\n%s", err, tt.want)
			}
			if !errors.Is(err, ErrBadAnswers) {
				t.Errorf("%v does not wrap ErrBadAnswers", err)
			}
		})
	}
}

// TestFileWithinLimits: brackets in text do not count as nesting, the
// largest file allowed is read, and a UTF-8 byte-order mark is skipped
// rather than made part of the first key.
func TestFileWithinLimits(t *testing.T) {
	deep := strings.Repeat("[", 40)
	for _, yaml := range []string{
		"\xef\xbb\xbfanswers:\n  Database: SQLite\n",
		"answers:\n  Database: {other: \"" + deep + "\"}\n",
		"answers:\n  Database: {other: '" + deep + "'}\n",
		"answers:\n  Database:\n    other: a " + deep + "\n",
		"answers:\n  Database: SQLite # " + deep + "\n",
		"answers:\n  Database:\n    other: |\n      " + deep + "\n      " + deep + "\n",
		"answers:\n  Database: {other: \"" + strings.Repeat("x", MaxFileScalarBytes) + "\"}\n",
		"answers:\n  Database: SQLite\n" + strings.Repeat("#", MaxFileBytes-len("answers:\n  Database: SQLite\n")),
		"answers:\n" + manyKeys(MaxFileItems-1) + "  Database: SQLite\n",
	} {
		f, err := ParseFile(testPath, []byte(yaml))
		if err != nil {
			t.Errorf("ParseFile(%.80q…): %.300v", yaml, err)
			continue
		}
		if got, err := askFile(t, f, qDB); err != nil || len(got[0].Selected)+len(got[0].Custom) == 0 {
			t.Errorf("%.80q…: Ask = %+v, %v", yaml, got, err)
		}
	}
}

// manyKeys answers n questions that are not asked.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  Question %d: A\n", i)
	}
	return b.String()
}

func TestLoadFileNotAFile(t *testing.T) {
	dir := t.TempDir()
	t.Run("directory", func(t *testing.T) {
		_, err := LoadFile(dir)
		if err == nil || errors.Is(err, ErrBadAnswers) || !strings.Contains(err.Error(), dir+" is a directory; give the path of a YAML file") {
			t.Errorf("LoadFile(directory) = %v", err)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		unreadable := filepath.Join(dir, "secret.yaml")
		if err := os.WriteFile(unreadable, []byte("answers: {}\n"), 0o000); err != nil {
			t.Fatal(err)
		}
		if f, err := os.Open(unreadable); err == nil {
			f.Close()
			t.Skip("this user reads files whatever their mode (root?), so an unreadable file cannot be made")
		}
		_, err := LoadFile(unreadable)
		if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "make "+unreadable+" readable by this user") {
			t.Errorf("LoadFile(unreadable) = %v", err)
		}
	})
}

// TestLoadFileReadsAtMostTheLimit: a 50 MB file is refused after reading
// no more than the limit, and says how large it is.
func TestLoadFileReadsAtMostTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(path, []byte("answers:\n  Database: "), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 50<<20); err != nil { // sparse: no 50 MB written
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := LoadFile(path)
	runtime.ReadMemStats(&after)
	want := path + ":2:65528: the file passes the 64 KiB limit here: it is 52428800 bytes (50.0 MiB)"
	if !errors.Is(err, ErrBadAnswers) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("LoadFile = %.300v\nwant prefix %s", err, want)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4*MaxFileBytes {
		t.Errorf("LoadFile of a 50 MB file allocated %d bytes", n)
	}
}
