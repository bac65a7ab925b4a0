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

const goalsSample = `pkg: github.com/askuser/askuser
BenchmarkBinarySize-2     	       1	     51167 ns/op	  24674466 askuser-bytes	  20209826 floor-bytes	   1405090 hello-bytes
BenchmarkProcessFloor-2   	      20	  17695350 ns/op	      1980 hello-KiB	 6.786 hello-ms/run	     12360 maxrss-KiB	  536.0 minflt	 17.53 ms/run	 2.583 x-hello
BenchmarkProcessVersion-2 	      20	  25552298 ns/op	      1980 hello-KiB	 8.444 hello-ms/run	     14968 maxrss-KiB	  674.0 minflt	 25.81 ms/run	 3.057 x-hello
BenchmarkProcessAskFile-2 	      20	  16000000 ns/op	      1980 hello-KiB	 8.000 hello-ms/run	     15000 maxrss-KiB	  700.0 minflt	 16.00 ms/run	 2.000 x-hello
BenchmarkProcessRunPrint/state=disk-2  	      20	  40000000 ns/op	      1980 hello-KiB	 8.000 hello-ms/run	     16000 maxrss-KiB	  900.0 minflt	 40.00 ms/run	 5.000 x-hello
BenchmarkProcessRunPrint/state=tmpfs-2 	      20	  30000000 ns/op	      1980 hello-KiB	 8.000 hello-ms/run	     16000 maxrss-KiB	  900.0 minflt	 30.00 ms/run	 3.750 x-hello
BenchmarkProcessClaudeCodePrint-2  	       1	1200000000 ns/op	      1980 hello-KiB	 8.000 hello-ms/run	    320000 maxrss-KiB	  40000 minflt	  1200 ms/run	 150.0 x-hello
pkg: github.com/askuser/askuser/internal/session
BenchmarkSessionLoadResume1000-2       	      54	  22000000 ns/op
BenchmarkSessionLoadDecodeBaseline-2   	      42	  20000000 ns/op
BenchmarkSessionLoadReadBaseline-2     	     739	   1500000 ns/op
`

func TestGoals(t *testing.T) {
	results, err := parse(strings.NewReader(goalsSample))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	printGoals(&out, results)
	for _, want := range []struct{ goal, measured, met string }{
		{"binary size", "24.7 MB: 1.22x the floor (20.2 MB), 17.6x hello-world", ""},
		{"askuser --version", "14.6 MiB peak RSS (hello-world 1.934 MiB; the floor 12.1 MiB: 1.21x)", "NO"},
		{"askuser ask --frontend file", "2.00x hello-world (16.0 vs 8.000 ms)", "yes"},
		{"run -p session vs Claude Code 2.1.197: time", "30.0x faster (40.0 vs 1200 ms; journal on tmpfs 30.0 ms: 40.0x)", "NO"},
		{"run -p session vs Claude Code 2.1.197: peak memory", "20.0x less (15.6 vs 312.5 MiB)", "yes"},
		{"resuming a 1,000-turn session", "1.10x decoding its journal (22.0 vs 20.0 ms; reading it alone 1.500 ms)", "yes"},
		{"the floor,", "12.1 MiB peak RSS, 17.5 ms, 2.58x hello-world", ""},
	} {
		line := lineStarting(out.String(), want.goal+" ")
		if !strings.Contains(line, want.measured) || !strings.HasSuffix(strings.TrimSpace(line), want.met) {
			t.Errorf("goal %q reads %q, want %q met %q", want.goal, line, want.measured, want.met)
		}
	}

	// Without Claude Code, the comparison is said not to have been made.
	var short []*result
	for _, r := range results {
		if r.name != "ProcessClaudeCodePrint" {
			short = append(short, r)
		}
	}
	out.Reset()
	printGoals(&out, short)
	if !strings.Contains(out.String(), "not measured: BenchmarkProcessClaudeCodePrint did not run (it skips when Claude Code 2.1.197 is not installed") {
		t.Errorf("without Claude Code's run the goals say:\n%s", out.String())
	}
}

// lineStarting returns the first line of s that starts with prefix.
func lineStarting(s, prefix string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}
