package resume

import "testing"

func TestTail(t *testing.T) {
	if got := tail("short", 10, 3); got != "short" {
		t.Errorf("tail kept %q", got)
	}
	if got := tail("abcdefghij", 4, 3); got != "…ghij" {
		t.Errorf("tail by characters = %q", got)
	}
	if got := tail("1\n2\n3\n4\n", 100, 2); got != "…3\n4" {
		t.Errorf("tail by lines = %q", got)
	}
}
