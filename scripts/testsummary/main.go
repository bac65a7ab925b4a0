// Command testsummary reads `go test -json` on stdin and prints what a
// plain `go test` prints (each package's ok/FAIL line, the output of the
// tests that failed, build errors), then the tests that were skipped,
// each with the reason it gave. scripts/test.sh, README's test command,
// pipes through it, so a person sees what did not run and why instead of
// a silent "ok". It exits 0; the caller keeps go test's own status.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is one line of test2json's output.
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// skip is a skipped test and why.
type skip struct{ pkg, test, why string }

func main() {
	if err := summarize(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
	}
}

// summarize copies the plain output of the events read from in to out,
// then lists the skipped tests.
func summarize(in io.Reader, out io.Writer) error {
	held := map[string][]string{} // a running test's output, by package and test
	var skips []skip
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Fprintln(out, string(line)) // not test2json: pass it on
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Test == "" && e.Action == "output":
			// The package's own lines: ok/FAIL, and what TestMain prints.
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
				fmt.Fprint(out, e.Output)
			}
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "fail":
			for _, l := range held[key] {
				if !strings.HasPrefix(l, "=== ") { // -v's markers: plain go test has none
					fmt.Fprint(out, l)
				}
			}
			delete(held, key)
		case e.Action == "skip" && e.Test != "":
			skips = append(skips, skip{e.Package, e.Test, reason(held[key])})
			delete(held, key)
		case e.Action == "pass":
			delete(held, key)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	printSkips(out, skips)
	return nil
}

// reason is what a skipped test said: its output but the === and ---
// lines, on one line.
func reason(lines []string) string {
	var said []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		said = append(said, t)
	}
	if len(said) == 0 {
		return "(it gave no reason)"
	}
	return strings.Join(said, " ")
}

func printSkips(out io.Writer, skips []skip) {
	if len(skips) == 0 {
		fmt.Fprintln(out, "\nNo test was skipped.")
		return
	}
	fmt.Fprintf(out, "\n%d %s skipped:\n", len(skips), map[bool]string{true: "test was", false: "tests were"}[len(skips) == 1])
	for _, s := range skips {
		fmt.Fprintf(out, "  %s %s: %s\n", strings.TrimPrefix(s.pkg, "github.com/askuser/askuser"), s.test, s.why)
	}
}
