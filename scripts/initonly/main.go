// Command initonly links every package askuser links and then exits
// without doing anything: its start-up cost, measured against scripts/hello
// and against askuser itself, splits askuser's cost into loading the
// binary and initialising its packages (the SDKs, survey, yaml...) and the
// work askuser then does (scripts/bench.sh, bench_test.go).
package main

import (
	_ "github.com/askuser/askuser/internal/app" // for its package initialisers only
)

func main() {}
