package channel

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// CutBlockNote splits what CutBlock gives: the kept start of the text,
// and the note with the link, within the limit together.
func TestCutBlockNoteSplitsTheNoteOff(t *testing.T) {
	long := strings.Repeat("0123456789", 500)
	link := "http://127.0.0.1:1/s/abc?token=t"
	kept, note := CutBlockNote(long, 1000, link)
	if !strings.HasPrefix(long, kept) || !strings.HasPrefix(note, "\n… cut here: all of it is at "+link) {
		t.Fatalf("kept %d characters, note %q", len(kept), note)
	}
	if n := utf8.RuneCountInString(kept + note); n > 1000 {
		t.Errorf("%d characters together, over 1000", n)
	}
	if kept+note != CutBlock(long, 1000, link) {
		t.Error("CutBlock and CutBlockNote disagree")
	}
	if kept, note := CutBlockNote("short", 1000, link); kept != "short" || note != "" {
		t.Errorf("a text that fits: %q, %q", kept, note)
	}
}
