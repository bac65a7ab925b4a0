// Command maxrss runs a program and reports the peak resident set size
// (rusage ru_maxrss) of that program alone, for askuser's process
// benchmarks (bench_test.go, scripts/bench.sh).
//
// Why a separate program: on Linux, exec records the peak RSS of the
// memory the process had before it, and a Go parent forks its children
// sharing its own memory (vfork), so a child of a large process such as a
// test binary reports the parent's peak whenever that is larger. maxrss is
// small (about as small as a hello-world), so the program it starts
// reports its own peak. Figures near maxrss's own size, about 2 MiB, are at
// the limit of the method and only approximate.
//
// Usage:
//
//	maxrss REPORT PROGRAM [ARG...]
//
// PROGRAM (a path, not looked up in PATH) runs with maxrss's standard
// streams and environment. When it ends, maxrss writes one line to the
// file REPORT:
//
//	maxrss_kib=N wall_ns=N minflt=N majflt=N utime_ns=N stime_ns=N
//
// (the peak RSS, the wall time, the minor and major page faults and the
// user and system CPU time, all of PROGRAM alone), and exits with
// PROGRAM's exit status (128+signal when it was killed). The page faults
// say where a Go program's start-up goes: each first touch of a page of
// the binary faults in a window of it (fault-around, 64 KiB by default),
// and the RSS is mostly those windows.
package main

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// fail prints msg on stderr and returns exit status 1. maxrss avoids fmt
// to stay small: its own size is the floor of what it can measure.
func fail(msg string, err error) int {
	_, _ = os.Stderr.WriteString("maxrss: " + msg + err.Error() + "\n")
	return 1
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) < 2 || args[0] == "" || args[0][0] == '-' {
		// A REPORT such as "--" would be written as a file of that name.
		_, _ = os.Stderr.WriteString("usage: maxrss REPORT PROGRAM [ARG...] (REPORT is the file to write, first, not a flag)\n")
		return 2
	}
	start := time.Now()
	pid, err := syscall.ForkExec(args[1], args[1:], &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		return fail("", err)
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		_, err = syscall.Wait4(pid, &ws, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	wall := time.Since(start)
	if err != nil {
		return fail("wait: ", err)
	}
	report := "maxrss_kib=" + strconv.FormatInt(ru.Maxrss, 10) +
		" wall_ns=" + strconv.FormatInt(wall.Nanoseconds(), 10) +
		" minflt=" + strconv.FormatInt(ru.Minflt, 10) +
		" majflt=" + strconv.FormatInt(ru.Majflt, 10) +
		" utime_ns=" + strconv.FormatInt(syscall.TimevalToNsec(ru.Utime), 10) +
		" stime_ns=" + strconv.FormatInt(syscall.TimevalToNsec(ru.Stime), 10) + "\n"
	if err := os.WriteFile(args[0], []byte(report), 0o644); err != nil {
		return fail("", err)
	}
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
