package postgres

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// No connection is not a failure. Every operation runs through retry,
// which tells a failure of the store's reach (the server full, starting,
// restarting, or not answering) from the server's refusal (a constraint,
// a password, a database that does not exist): the first is tried again,
// after a wait that doubles (with jitter, so a thousand processes do not
// come back at once), until the operation's context ends or the process
// is interrupted (Options.Interrupt); the second is the operation's
// error at once.
//
// A connection made earlier that broke under a statement (the server was
// restarted since) is tried again at once, on a new one: a page loaded
// just after a restart is drawn, not answered with an error. Every
// operation is written so that running it twice is running it once (a
// session created, an answer posted, a lease taken by an earlier try
// whose reply was lost is found and taken for this one's).

// failure is what kind of failure an error is.
type failure int

const (
	// final: the server answered, and refused (or the error is not the
	// store's at all).
	final failure = iota
	// unreachable: no connection could be made (refused, timed out, no
	// route).
	unreachable
	// busy: the server refused a connection for now: it is full
	// (too_many_connections), or starting or stopping
	// (cannot_connect_now).
	busy
	// broken: a connection failed under a statement (the server shut
	// down, the network dropped it).
	broken
)

// Waits between tries.
const (
	retryFirst = 100 * time.Millisecond
	retryMost  = 3 * time.Second
)

// classify says what kind of failure err is.
func classify(err error) failure {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return final
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "53300", pgErr.Code == "57P03", pgErr.Code == "53000": // too_many_connections, cannot_connect_now, insufficient_resources
			return busy
		case strings.HasPrefix(pgErr.Code, "57P"), strings.HasPrefix(pgErr.Code, "08"): // admin or crash shutdown; connection exceptions
			return broken
		}
		return final
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &recErr):
		return final // TLS that will not work: a configuration to fix
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return final // a host that does not exist
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return unreachable
	}
	var netErr net.Error
	if pgconn.SafeToRetry(err) || pgconn.Timeout(err) || errors.As(err, &netErr) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ECONNREFUSED) {
		return broken
	}
	return final
}

// transient reports whether err is the store out of reach for now.
func transient(err error) bool { return classify(err) != final }

// patience is how long an operation waits for the store out of reach.
type patience int

const (
	// waitAll waits out every failure of the store's reach, until the
	// operation's context ends: a process that waits for an answer
	// (Options.Patient).
	waitAll patience = iota
	// waitBusy waits for a server that is full or starting, until the
	// context ends; one that cannot be reached fails at once (Open,
	// in a process that is not patient).
	waitBusy
	// waitBrief waits for a server that is full or restarting for at
	// most briefWait; one that cannot be reached fails at once: a page,
	// a relay's pass, a listing, tried again anyway by whoever asked.
	waitBrief
)

// briefWait bounds a waitBrief wait.
const briefWait = 5 * time.Second

// patience is how long this process's operations wait.
func (db *DB) patience() patience {
	if db.opts.Patient {
		return waitAll
	}
	return waitBrief
}

// retry runs op until it succeeds, fails for good, its patience ends,
// ctx ends or the process is interrupted: then op's last error is
// returned.
func (db *DB) retry(ctx context.Context, p patience, op func(ctx context.Context) error) error {
	wait, start := retryFirst, time.Now()
	for try := 1; ; try++ {
		err := op(ctx)
		kind := classify(err)
		switch {
		case err == nil:
			db.reached()
			return nil
		case kind == final, ctx.Err() != nil, db.interrupted():
			return err
		case kind == broken && try == 1:
			db.triedAgain.Add(1)
			continue // a connection of before a restart: a new one at once
		case kind == unreachable && p != waitAll:
			return err
		case p == waitBrief && time.Since(start) >= briefWait:
			return err
		}
		db.unreached(err)
		if !sleep(ctx, db.opts.Interrupt, jitter(wait)) {
			return err
		}
		wait = min(wait*2, retryMost)
	}
}

// jitter is d scaled by a random factor in [0.5, 1.5).
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.5 + rand.Float64()))
}

// sleep waits d, and reports false when ctx or interrupt ended first.
func sleep(ctx, interrupt context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	var stop <-chan struct{}
	if interrupt != nil {
		stop = interrupt.Done()
	}
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-stop:
	}
	return false
}

// interrupted reports whether the process was interrupted (Ctrl+C): no
// wait for the store goes on, each operation is tried once.
func (db *DB) interrupted() bool {
	return db.opts.Interrupt != nil && db.opts.Interrupt.Err() != nil
}

// unreached tells the person, once per outage, that the store is waited
// for.
func (db *DB) unreached(err error) {
	db.outageMu.Lock()
	first := !db.outage
	db.outage = true
	db.outageMu.Unlock()
	if first && db.opts.Notice != nil {
		db.opts.Notice("cannot reach the store " + db.shown + " (" + scrub(reason(err), db.password) + "); waiting for it, and trying again")
	}
}

// reached ends an outage, telling the person if one was told of.
func (db *DB) reached() {
	db.outageMu.Lock()
	was := db.outage
	db.outage = false
	db.outageMu.Unlock()
	if was && db.opts.Notice != nil {
		db.opts.Notice("the store " + db.shown + " answers again")
	}
}

// reason is the innermost words of a driver's error: what the server or
// the network said.
func reason(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message + " (SQLSTATE " + pgErr.Code + ")"
	}
	return unwrapAll(err).Error()
}
