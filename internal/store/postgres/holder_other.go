//go:build !linux

package postgres

// machineOf cannot name the machine where the system gives no boot
// identity to read: a holder is then seen gone only by its expiry.
func machineOf(pid int) (machine string, started int64) { return "", 0 }

// processAlive is never asked where machineOf names no machine.
func processAlive(pid, started int64) bool { return true }

// processGone is never asked where machineOf names no machine.
func processGone(pid int64) bool { return false }
