package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

const leanSample = `pkg: github.com/askuser/askuser
BenchmarkBinarySize-2     	       1	     51167 ns/op	  24674466 askuser-bytes	  20209826 floor-bytes	   1405090 hello-bytes
BenchmarkProcessHook-2    	      20	   7070712 ns/op	      1852 hello-KiB	 1.400 hello-ms/run	     16384 maxrss-KiB	  994.0 minflt	 7.000 ms/run	 5.000 x-hello
BenchmarkProcessVersion-2 	      20	   6149462 ns/op	      1980 hello-KiB	 1.414 hello-ms/run	     14336 maxrss-KiB	  994.0 minflt	 5.967 ms/run	 4.221 x-hello
BenchmarkProcessRunPrint/state=disk-2  	      20	  48799439 ns/op	      1852 hello-KiB	 2.000 hello-ms/run	     20480 maxrss-KiB	 1348 minflt	 50.00 ms/run	 25.00 x-hello
pkg: before:github.com/askuser/askuser
BenchmarkBinarySize-2     	       1	     51167 ns/op	  51794082 askuser-bytes	  20209826 floor-bytes	   1405090 hello-bytes
BenchmarkProcessHook-2    	      20	   7070712 ns/op	      1852 hello-KiB	 1.000 hello-ms/run	     24576 maxrss-KiB	  994.0 minflt	 10.00 ms/run	 10.00 x-hello
`

func TestLeanTable(t *testing.T) {
	results, err := parse(strings.NewReader(leanSample))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if !printLean(&out, results) {
		t.Errorf("a 24.7 MB binary is said to pass 30 MB")
	}
	for _, want := range [][]string{
		{"release binary, stripped", "51.8 MB", "24.7 MB", "0.48x", "<= 30 MB", "yes"},
		{"askuser hook, a Bash call an answers-file rule allows: peak RSS", "24.0 MiB", "16.0 MiB", "0.67x", "<= 18 MiB", "yes"},
		{"askuser hook, same call: wall", "10.0 ms (10.00x hello-world's 1.000 ms)", "7.000 ms (5.00x hello-world's 1.400 ms)", "0.50x", "<= 5x hello-world", "yes"},
		{"a 2-turn run -p (Anthropic): peak RSS", "not measured", "20.0 MiB", "<= 20 MiB", "yes"},
		{"a 2-turn run -p (OpenAI-compatible): peak RSS", "not measured: BenchmarkProcessRunPrintOpenAI did not run"},
		{"--version: peak RSS", "not measured", "14.0 MiB"},
	} {
		if got := cells(lineStarting(out.String(), want[0]+"  ")); !slices.Equal(got, want) {
			t.Errorf("row %q reads %q, want %q\n%s", want[0], got, want, out.String())
		}
	}

	// Over the limit, or not measured, the binary fails.
	results[0].metrics["askuser-bytes"] = []float64{30_000_001}
	if printLean(&out, results) {
		t.Errorf("a binary of 30,000,001 bytes is said to pass 30 MB")
	}
	if printLean(&out, results[1:]) {
		t.Errorf("a binary never measured is said to pass")
	}
}

// cells splits a table line into its columns, which tabwriter separates by
// two spaces or more.
func cells(line string) []string {
	return regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), -1)
}
