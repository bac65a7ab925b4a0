//go:build !unix

package prompt

import "os"

// ttyReader passes reads through to the terminal. Where poll(2) is not
// available a blocked read cannot be interrupted, so cancelling the context
// takes effect only between prompts: Ask checks the context before each one.
type ttyReader struct{ f *os.File }

func newTTYReader(f *os.File) (*ttyReader, error) { return &ttyReader{f: f}, nil }

// Fd returns the terminal's descriptor, so survey can set its mode.
func (r *ttyReader) Fd() uintptr { return r.f.Fd() }

// Read reads from the terminal.
func (r *ttyReader) Read(p []byte) (int, error) { return r.f.Read(p) }

// Cancel does nothing here; see the type's comment.
func (r *ttyReader) Cancel() {}

// Close does nothing: the reader holds nothing of its own.
func (r *ttyReader) Close() error { return nil }
