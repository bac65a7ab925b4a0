//go:build unix

package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenRefusesLinks plants a symbolic link where a state file goes:
// reading, writing, appending and creating through it are refused with
// the link named, and the file it points to is left as it was.
func TestOpenRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "x.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() error{
		"read":   func() error { _, err := ReadFile(link, 1<<20); return err },
		"append": func() error { return closeIfOpen(OpenFile(link, os.O_RDWR|os.O_APPEND, 0o600)) },
		"create": func() error { return closeIfOpen(OpenFile(link, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)) },
		"write":  func() error { return WriteFile(link, []byte("overwritten"), 0o600) },
	} {
		err := open()
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != "a symbolic link" || !strings.Contains(err.Error(), link) || !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s through a link: %v, want a NotRegularError naming %s as a symbolic link", name, err, link)
		}
	}
	// A dangling link is not created through either.
	dangling := filepath.Join(dir, "serve.log")
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := closeIfOpen(OpenFile(dangling, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)); !errors.Is(err, ErrNotRegular) {
		t.Errorf("creating through a dangling link: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Error("the dangling link's target was created")
	}
}

// TestOpenRefusesSpecialFiles opens a FIFO (with and without a process at
// its other end), a device and a directory: each is refused at once, never
// waited on, and named with what it is.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.jsonl")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(what, path, kind string, err error) {
		t.Helper()
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != kind || nr.Path != path {
			t.Errorf("%s: %v, want %s refused as %s", what, err, path, kind)
		}
	}
	_, err := ReadFile(fifo, 1<<20)
	check("reading a FIFO nobody writes", fifo, "a named pipe (FIFO)", err)
	check("appending to a FIFO nobody reads", fifo, "a named pipe (FIFO)", closeIfOpen(OpenFile(fifo, os.O_WRONLY|os.O_APPEND, 0)))
	// With a reader at the other end the open succeeds; the type check
	// still refuses it.
	r, err := os.OpenFile(fifo, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	check("writing a FIFO someone reads", fifo, "a named pipe (FIFO)", WriteFile(fifo, []byte("x"), 0o600))
	_, err = ReadFile("/dev/null", 1<<20)
	check("reading a device", "/dev/null", "a device", err)
	_, err = ReadFile(dir, 1<<20)
	check("reading a directory", dir, "a directory", err)
}

// TestOpenRegular reads and appends to a regular file as os.OpenFile
// would, with the descriptor back in blocking mode.
func TestOpenRegular(t *testing.T) {
	path := filepath.Join(t.TempDir(), "serve.log")
	f, err := OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil || flags&unix.O_NONBLOCK != 0 {
		t.Errorf("flags %#x (%v): O_NONBLOCK is still set", flags, err)
	}
	if _, err := f.WriteString("one\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("created with %v (%v), want 0600", fi.Mode(), err)
	}
	if err := WriteFile(path, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 4); err != nil || string(b) != "two\n" {
		t.Errorf("read %q, %v", b, err)
	}
}

// TestReadAllBounds refuses a file over the limit from its size alone (an
// 8 GiB sparse file costs nothing to make and nothing to refuse), and one
// at the limit is read whole.
func TestReadAllBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 10); err != nil || len(b) != 10 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
	_, err := ReadFile(path, 9)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 10 || tl.Limit != 9 || !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if err := os.Truncate(path, 8<<30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	_, err = ReadFile(path, 256<<20)
	if want := path + " is 8.0 GiB, larger than the 256 MiB askuser reads of it"; err == nil || err.Error() != want {
		t.Errorf("8 GiB: %v, want %q", err, want)
	}
}

// TestMkdirAllRefusesLink: a side directory planted as a link to another
// directory is refused, so files are never created through it.
func TestMkdirAllRefusesLink(t *testing.T) {
	dir := t.TempDir()
	if err := MkdirAll(filepath.Join(dir, "a.d"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(filepath.Join(dir, "a.d"), 0o700); err != nil {
		t.Errorf("an existing directory: %v", err)
	}
	link := filepath.Join(dir, "b.d")
	if err := os.Symlink(filepath.Join(dir, "a.d"), link); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(link, 0o700); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "b.d is a symbolic link") {
		t.Errorf("a link to a directory: %v", err)
	}
}

func closeIfOpen(f *os.File, err error) error {
	if f != nil {
		f.Close()
	}
	return err
}
