package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// What the system says of a process (Linux's /proc): its CPU time, and
// its memory. The waiters benchmark reads them of every waiting process
// and of the PostgreSQL server.

// clockTicks is Linux's USER_HZ, the unit of /proc/PID/stat's times.
const clockTicks = 100

// statFields are the fields of /proc/pid/stat after the command's name:
// f[0] is field 3 (the state).
func statFields(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

func field(f []string, n int) int64 {
	if len(f) <= n-3 {
		return 0
	}
	v, _ := strconv.ParseInt(f[n-3], 10, 64)
	return v
}

// cpuTicks is the CPU time process pid used (user and system), with that
// of its children that ended and were waited for when children is set.
func cpuTicks(pid int, children bool) int64 {
	f := statFields(pid)
	t := field(f, 14) + field(f, 15)
	if children {
		t += field(f, 16) + field(f, 17)
	}
	return t
}

// serverTicks is the CPU time of PostgreSQL's postmaster pid and every
// backend it runs or ran (an ended backend's time is its parent's
// children's).
func serverTicks(postmaster int) int64 {
	t := cpuTicks(postmaster, true)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := statFields(pid); field(f, 4) == int64(postmaster) {
			t += cpuTicks(pid, true)
		}
	}
	return t
}

// memory is a process's memory, in kB: what ps shows (RSS), its share of
// pages it shares with others (PSS), and the part of that which is its
// own data rather than the binary's code (anonymous).
type memory struct{ rss, pss, anon int64 }

func memoryOf(pid int) memory {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
	if err != nil {
		return memory{}
	}
	defer f.Close()
	var m memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "Rss":
			m.rss = n
		case "Pss":
			m.pss = n
		case "Pss_Anon":
			m.anon = n
		}
	}
	return m
}

// postmasterPID reads the server's process id from its data directory.
func postmasterPID(dataDir string) int {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	return pid
}
