package postgres

import (
	"os"
	"strconv"
	"strings"
)

// machineOf names the machine of process pid as Linux does: the boot
// (a restart is another machine: no process of before survives it) and
// the process namespace (a container's process ids are its own), and
// says when the process started, in clock ticks since boot.
func machineOf(pid int) (machine string, started int64) {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", 0
	}
	ns, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid")
	if err != nil {
		return "", 0
	}
	started, ok := startTime(int64(pid))
	if !ok {
		return "", 0
	}
	return "linux:" + strings.TrimSpace(string(boot)) + ":" + ns, started
}

// startTime is when process pid started (field 22 of its stat), in
// clock ticks since boot; false for a process that is gone, or ended and
// not yet reaped by its parent (a zombie).
func startTime(pid int64) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.FormatInt(pid, 10) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command's name, in parentheses, may hold spaces: the fields
	// are counted after its closing parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" { // f[0] is field 3, the state
		return 0, false
	}
	n, err := strconv.ParseInt(f[19], 10, 64)
	return n, err == nil
}

// processAlive reports whether process pid, started at started, still
// runs on this machine: a process id used again by a later process is
// not it.
func processAlive(pid, started int64) bool {
	now, ok := startTime(pid)
	return ok && now == started
}

// processGone reports whether process pid has ended (a peer of a socket
// of this machine: its id was not used again in between).
func processGone(pid int64) bool {
	if pid <= 0 {
		return false
	}
	_, ok := startTime(pid)
	return !ok
}
