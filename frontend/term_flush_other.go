//go:build !unix

package frontend

// discardTypeahead does nothing where poll(2) is not available: a read
// that finds nothing would block.
func discardTypeahead(int) {}
