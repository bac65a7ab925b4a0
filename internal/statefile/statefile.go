package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is matched (errors.Is) by every *NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError reports a path that is not a regular file: a symbolic
// link, a FIFO, a device, a socket or a directory.
type NotRegularError struct {
	Path string
	// Kind says what it is instead, e.g. "a symbolic link".
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; askuser never follows a link or opens a pipe or a device "+
		"in its state directory: remove it (rm %s)", e.Path, e.Kind, e.Path)
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// ErrTooLarge is matched (errors.Is) by every *TooLargeError.
var ErrTooLarge = errors.New("file too large")

// TooLargeError reports a file larger than what is read of it.
type TooLargeError struct {
	Path string
	// Size is the file's size (at least Limit+1 when it grew while read).
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %s, larger than the %s askuser reads of it", e.Path, Size(e.Size), Size(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// KindSymlink is the Kind of a symbolic link.
const KindSymlink = "a symbolic link"

// Kind describes a file mode that is not a regular file's, for a
// *NotRegularError ("" for a regular file).
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return ""
	case t&fs.ModeSymlink != 0:
		return KindSymlink
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Open opens a regular file for reading; see OpenFile.
func Open(path string) (*os.File, error) { return OpenFile(path, os.O_RDONLY, 0) }

// OpenFile is os.OpenFile for a file of the state directory: it never
// follows a symbolic link at path, never blocks on a FIFO or a device, and
// returns a *NotRegularError for anything but a regular file.
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := openNoFollow(path, flag, perm)
	if err != nil {
		// The open fails on a link (ELOOP, or EMLINK on some BSDs) and
		// on a FIFO opened for writing with no reader (ENXIO): say what
		// the path is rather than how the open failed.
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
		}
		return nil, err
	}
	return f, nil
}

// ReadFile reads a regular file of at most limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, limit)
}

// ReadAll reads what is left of f, refusing it (*TooLargeError) when its
// size says it is larger than limit, and reading at most limit+1 bytes of
// it in any case, so a file that grows meanwhile is refused too.
func ReadAll(f *os.File, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: f.Name(), Size: fi.Size(), Limit: limit}
	}
	data := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, &TooLargeError{Path: f.Name(), Size: int64(len(data)), Limit: limit}
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew since Stat: make room
		}
	}
}

// WriteFile is os.WriteFile for a file of the state directory: a link or
// a FIFO at path is refused, never written through.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// MkdirAll is os.MkdirAll, and then requires dir itself to be a directory
// and not a symbolic link to one (*NotRegularError), so what is created
// in it stays where askuser put it.
func MkdirAll(dir string, perm os.FileMode) error {
	if err := os.MkdirAll(dir, perm); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &NotRegularError{Path: dir, Kind: Kind(fi.Mode())}
	}
	return nil
}

// Size words a byte count for a message: "512 bytes", "64 KiB", "8.0 GiB".
func Size(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", n>>10)
	case n < 1<<30:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
