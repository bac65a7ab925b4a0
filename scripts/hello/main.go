// Command hello is the baseline of askuser's process benchmarks: a static
// Go program that does nothing but print one line, built with the same
// flags as the release binary (scripts/bench.sh, bench_test.go). The cost
// of starting any Go process is in it; what askuser costs beyond it is
// askuser's own.
package main

import "os"

func main() {
	_, _ = os.Stdout.WriteString("hello, world\n")
}
