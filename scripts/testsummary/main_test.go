package main

import (
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"example/a"}`,
		`{"Action":"run","Package":"example/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"example/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}`,
		`{"Action":"pass","Package":"example/a","Test":"TestOK"}`,
		`{"Action":"run","Package":"example/a","Test":"TestClient"}`,
		`{"Action":"output","Package":"example/a","Test":"TestClient","Output":"=== RUN   TestClient\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestClient","Output":"    x_test.go:9: Claude Code 2.1.332 is not installed: run scripts/install-clients.sh\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestClient","Output":"--- SKIP: TestClient (0.00s)\n"}`,
		`{"Action":"skip","Package":"example/a","Test":"TestClient"}`,
		`{"Action":"run","Package":"example/a","Test":"TestBad"}`,
		`{"Action":"output","Package":"example/a","Test":"TestBad","Output":"=== RUN   TestBad\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestBad","Output":"    x_test.go:12: got 1, want 2\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}`,
		`{"Action":"fail","Package":"example/a","Test":"TestBad"}`,
		`{"Action":"output","Package":"example/a","Output":"FAIL\n"}`,
		`{"Action":"output","Package":"example/a","Output":"FAIL\texample/a\t0.01s\n"}`,
		`{"Action":"fail","Package":"example/a"}`,
		`{"ImportPath":"example/b","Action":"build-output","Output":"b/b.go:3:1: syntax error\n"}`,
		`not json at all`,
	}, "\n")
	var out strings.Builder
	if err := summarize(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"    x_test.go:12: got 1, want 2\n--- FAIL: TestBad (0.00s)\n",
		"FAIL\texample/a\t0.01s\n",
		"b/b.go:3:1: syntax error\n",
		"not json at all\n",
		"1 test was skipped:\n  example/a TestClient: x_test.go:9: Claude Code 2.1.332 is not installed: run scripts/install-clients.sh\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, never := range []string{"TestOK", "=== RUN"} {
		if strings.Contains(got, never) {
			t.Errorf("output holds %q, which plain go test does not print:\n%s", never, got)
		}
	}
}

func TestSummarizeNoSkips(t *testing.T) {
	var out strings.Builder
	summarize(strings.NewReader(`{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}`), &out)
	if want := "ok  \tp\t0.1s\n\nNo test was skipped.\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
