package app

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
)

// Help printed several times in one process shows the exit codes once
// each time: the templates are the app's own, not urfave/cli's globals.
func TestHelpDoesNotGrow(t *testing.T) {
	for _, args := range [][]string{{"askuser", "--help"}, {"askuser", "run", "--help"}} {
		for i := range 3 {
			var out, errOut bytes.Buffer
			if code := Run(context.Background(), args, strings.NewReader(""), &out, &errOut); code != cmdutil.ExitOK {
				t.Fatalf("%v: exit %d, stderr %s", args, code, errOut.String())
			}
			if n := strings.Count(out.String(), "EXIT CODES:"); n != 1 {
				t.Errorf("%v, call %d: the exit-code table appears %d times, want once", args, i+1, n)
			}
		}
	}
}
