//go:build unix

package runflow

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/askuser/askuser/ask"
)

// TestNotifyCommandIsNeverAnOption: --notify-cmd is the command sh runs,
// even when it begins with "-": sh gets it after "--", never as options.
func TestNotifyCommandIsNeverAnOption(t *testing.T) {
	bin := t.TempDir()
	out := filepath.Join(t.TempDir(), "notified")
	script := "#!/bin/sh\necho \"$@\" > '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "-notify"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var errOut bytes.Buffer
	n := &notifier{cmd: "-notify waiting", sessionID: "s", errOut: &errOut}
	n.notify(ask.Request{ID: "toolu_1", Questions: []ask.Question{{Question: "Which?", Header: "H",
		Options: []ask.Option{{Label: "A"}, {Label: "B"}}}}}, "no answer yet")
	n.wg.Wait()
	if b, err := os.ReadFile(out); err != nil || string(b) != "waiting\n" {
		t.Errorf("the command ran with %q (%v); stderr %q", b, err, errOut.String())
	}
}
