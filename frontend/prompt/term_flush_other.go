//go:build !unix

package prompt

// discardTypeahead does nothing where poll(2) is not available: a read
// that finds nothing would block.
func discardTypeahead(int) {}
