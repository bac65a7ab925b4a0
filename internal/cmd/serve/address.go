package serve

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/statefile"
)

// serve.url (channelwire.AddressFile) is where askuser serve leaves its
// address, token included, in the state directory it serves: a run's
// --notify-cmd and the chat channels then link to the session's page.
// channelwire reads it; serve alone writes it.

// leaveAddress writes the inbox's URL for runs to find, and returns what
// takes it away again: only while it is still this inbox's. It holds the
// token, so it is written as the token file is (replaceOwn): 0600, never
// through a link planted in its place. It is read through statefile: a
// FIFO there is never waited on.
func leaveAddress(stateDir, address string, errOut io.Writer) func() {
	path := filepath.Join(stateDir, channelwire.AddressFile)
	if err := replaceOwn(path, address+"\n"); err != nil {
		fmt.Fprintf(errOut, "askuser: could not leave the inbox's address for notifications (%v); they will not link to it\n", err)
		return func() {}
	}
	return func() {
		if b, err := statefile.ReadFile(path, channelwire.MaxAddressBytes); err == nil && strings.TrimSpace(string(b)) == address {
			os.Remove(path)
		}
	}
}
