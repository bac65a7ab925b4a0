package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
pkg: github.com/askuser/askuser/frontend
BenchmarkStdioRoundTrip/pipe=mem/questions=1-2   	  100	     10000 ns/op	    100000 roundtrips/s	    1168 B/op	      13 allocs/op
BenchmarkStdioRoundTrip/pipe=mem/questions=1-2   	  100	     30000 ns/op	     33333 roundtrips/s	    1168 B/op	      13 allocs/op
BenchmarkStdioRoundTrip/pipe=mem/questions=1-2   	  100	     12000 ns/op	     83333 roundtrips/s	    1168 B/op	      13 allocs/op
BenchmarkPipeEchoBaseline/pipe=mem/questions=1-2 	 1000	      3000 ns/op	    333333 roundtrips/s
BenchmarkPipeEchoBaseline/pipe=mem/questions=1-2 	 1000	      2000 ns/op	    500000 roundtrips/s
PASS
pkg: github.com/askuser/askuser
BenchmarkProcessHello-2   	  100	   2000000 ns/op	  1900 hello-KiB	  2.0 hello-ms/run	  1900 maxrss-KiB	  2.0 ms/run	  1.0 x-hello
BenchmarkProcessAskFile-2 	  100	   7000000 ns/op	  1900 hello-KiB	  2.0 hello-ms/run	 16000 maxrss-KiB	  7.0 ms/run	  3.5 x-hello
BenchmarkProcessRunPrint/state=disk-2  	  10	  20000000 ns/op	  1900 hello-KiB	  2.0 hello-ms/run	 20000 maxrss-KiB	 20.0 ms/run	 10.0 x-hello
BenchmarkProcessRunPrint/state=tmpfs-2 	  10	  15000000 ns/op	  1900 hello-KiB	  2.0 hello-ms/run	 20000 maxrss-KiB	 15.0 ms/run	  7.5 x-hello
`

func TestParseMediansAndRatios(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 6 {
		t.Fatalf("%d results, want 6: %+v", len(results), results)
	}
	rt := results[0]
	if rt.name != "StdioRoundTrip/pipe=mem/questions=1" || rt.pkg != "github.com/askuser/askuser/frontend" {
		t.Errorf("first result %q in %q", rt.name, rt.pkg)
	}
	if got := median(rt.metrics["ns/op"]); got != 12000 {
		t.Errorf("median ns/op %v, want 12000", got)
	}
	if got := median(results[1].metrics["ns/op"]); got != 2500 {
		t.Errorf("median of two %v, want 2500", got)
	}
	var out strings.Builder
	printRatios(&out, results)
	for _, want := range []string{
		"StdioRoundTrip/pipe=mem/questions=1  PipeEchoBaseline/pipe=mem/questions=1  4.80x",
		"ProcessAskFile                       ProcessHello                           3.50x       7.000 ms vs 2.000 ms; peak RSS 16000 KiB vs 1900 KiB",
		"20.0 ms with its state on disk, 15.0 ms on tmpfs: 5.000 ms (25%) is durability",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("ratios lack %q:\n%s", want, out.String())
		}
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "ProcessHello ") {
			t.Errorf("hello-world is listed against itself: %q", line)
		}
	}
}
