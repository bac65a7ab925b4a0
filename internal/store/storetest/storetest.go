// Package storetest is the contract of askuser's session stores: one
// table of cases that every store (files in a state directory, and the
// PostgreSQL team store) must answer alike, run by each store's own tests.
//
// A case is given a Procs: each call makes a new process's view of one
// store (a Store of its own over the same files or the same database), so
// a case can race two processes, or have one hold what another tries to
// take. The cases compare what the session API returns, never how a
// store keeps it; the few about damage the API cannot cause (RunDamage)
// are given a Hand by each store's tests, which damages what it keeps.
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/session"
)

// Procs makes a new process's Store over the one store under test.
type Procs func() *session.Store

// Case is one behaviour every store must have.
type Case struct {
	Name string
	Run  func(t *testing.T, procs Procs)
}

// Run runs every case against the store newStore makes, each case on a
// store of its own.
func Run(t *testing.T, newStore func(t *testing.T) Procs) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) { c.Run(t, newStore(t)) })
	}
}

// Cases are the contract, in the order they run.
func Cases() []Case {
	var out []Case
	out = append(out, journalCases...)
	out = append(out, mailboxCases...)
	out = append(out, registryCases...)
	out = append(out, deliveriesCases...)
	out = append(out, hostCases...)
	return out
}

// T0 is when the cases' clocks start.
var T0 = time.Date(2026, 11, 26, 14, 2, 0, 0, time.UTC)

// Clock is a store's clock for the cases: T0 and a second more at every
// reading, whichever goroutine reads it. A case's Procs share one.
func Clock() func() time.Time {
	var mu sync.Mutex
	now := T0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}
