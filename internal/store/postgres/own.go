package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The process's own connection: one per process, outside the pool, made
// when first needed. It holds the process's advisory locks (lock.go) and
// listens for answers (wake.go), so a run that holds its session and
// waits costs the server one connection beside an idle pooled one, and
// fifty waiting runs fit in PostgreSQL's default 100 connections.
//
// One goroutine owns it. It waits for notifications, and between waits
// runs the lock requests of the process's goroutines, which interrupt the
// wait to be served. When the connection drops (the server restarted) it
// connects again, listens again, takes every held lock again, and wakes
// every waiter to read its row again: notifications sent meanwhile are
// lost, and answers given meanwhile are found so.
type own struct {
	db *DB

	mu        sync.Mutex
	held      map[int64]string
	taking    map[int64]bool // asked for, not answered yet
	lost      map[int64]bool
	subs      map[string]map[chan struct{}]bool
	started   bool
	stop      context.CancelFunc
	done      chan struct{}
	interrupt context.CancelFunc // ends the current wait, to serve a request
	reqs      []*request
	// beforeListen, in tests, runs before each LISTEN; connects counts
	// the connections made, listens the LISTENs done.
	beforeListen func()
	connects     int
	listens      int    // LISTENs done, for tests
	pid          uint32 // the connection's backend, for tests
}

// request is a lock function the owner runs for another goroutine: it
// takes (name set) or gives back the lock key.
type request struct {
	sql   string
	key   int64
	name  string
	reply chan reply
}

type reply struct {
	got bool
	err error
}

// Timings of the own connection.
const (
	// listenCheck is how long the owner waits for a notification before
	// checking that its connection is alive: a connection that died
	// without a word is found within it.
	listenCheck = 30 * time.Second
	retryFirst  = 100 * time.Millisecond
	retryMost   = 2 * time.Second
)

func newOwn(db *DB) *own {
	return &own{db: db, held: map[int64]string{}, taking: map[int64]bool{}, lost: map[int64]bool{},
		subs: map[string]map[chan struct{}]bool{}}
}

// start starts the owner, once. Called with mu held.
func (o *own) start() {
	if o.started {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	o.started, o.stop, o.done = true, cancel, make(chan struct{})
	go func() {
		defer close(o.done)
		o.run(ctx)
	}()
}

// do runs sql (a lock function of key, returning a boolean) on the own
// connection, and returns its result. With name set, a lock taken is
// held from then on (before do returns, so a connection made again
// takes it again).
func (o *own) do(ctx context.Context, sql string, key int64, name string) (bool, error) {
	r := &request{sql: sql, key: key, name: name, reply: make(chan reply, 1)}
	o.mu.Lock()
	o.start()
	o.reqs = append(o.reqs, r)
	if o.interrupt != nil {
		o.interrupt()
	}
	o.mu.Unlock()
	select {
	case rep := <-r.reply:
		return rep.got, rep.err
	case <-ctx.Done():
		o.mu.Lock()
		for i, q := range o.reqs {
			if q == r {
				o.reqs = append(o.reqs[:i], o.reqs[i+1:]...)
				break
			}
		}
		o.mu.Unlock()
		return false, fmt.Errorf("cannot reach the store %s: %w", o.db.shown, ctx.Err())
	}
}

// run keeps the own connection until ctx ends, connecting again when it
// drops.
func (o *own) run(ctx context.Context) {
	wait := retryFirst
	for ctx.Err() == nil {
		err := o.session(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			wait = retryFirst
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, retryMost)
	}
}

// session is one connection's life: connect, listen, take the held locks
// again, wake every waiter to read again; then serve requests and pass
// notifications on until the connection fails.
func (o *own) session(ctx context.Context) error {
	conn, err := o.db.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	o.mu.Lock()
	hook := o.beforeListen
	o.connects++
	o.pid = conn.PgConn().PID()
	o.mu.Unlock()
	if hook != nil {
		hook()
	}
	if _, err := conn.Exec(ctx, "LISTEN "+answerChannel); err != nil {
		return err
	}
	o.mu.Lock()
	o.listens++
	o.mu.Unlock()
	if err := o.retake(ctx, conn); err != nil {
		return err
	}
	o.notify("", true)
	for {
		if err := o.serve(ctx, conn); err != nil {
			return err
		}
		if err := o.listen(ctx, conn); err != nil {
			return err
		}
	}
}

// retake takes every held lock again on a new connection; one another
// process took meanwhile is marked lost.
func (o *own) retake(ctx context.Context, conn *pgx.Conn) error {
	o.mu.Lock()
	held := make(map[int64]string, len(o.held))
	for k, n := range o.held {
		held[k] = n
	}
	o.mu.Unlock()
	for key := range held {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&got); err != nil {
			return err
		}
		o.mu.Lock()
		if _, still := o.held[key]; still && !got {
			o.lost[key] = true // said by the next write under it (Journal.Append)
		}
		o.mu.Unlock()
	}
	return nil
}

// serve runs the requests made so far. A request whose statement fails
// gets the error; the connection's failure ends the session, and the
// requests not served wait for the next.
func (o *own) serve(ctx context.Context, conn *pgx.Conn) error {
	for {
		o.mu.Lock()
		if len(o.reqs) == 0 {
			o.mu.Unlock()
			return nil
		}
		r := o.reqs[0]
		o.reqs = o.reqs[1:]
		o.mu.Unlock()
		var got bool
		err := conn.QueryRow(ctx, r.sql, r.key).Scan(&got)
		if err != nil && conn.IsClosed() {
			o.mu.Lock()
			o.reqs = append([]*request{r}, o.reqs...) // tried again on the next connection
			o.mu.Unlock()
			return err
		}
		if r.name != "" {
			o.mu.Lock()
			delete(o.taking, r.key)
			if got && err == nil {
				o.held[r.key] = r.name
			}
			o.mu.Unlock()
		}
		r.reply <- reply{got, o.db.errorf("lock", err)}
	}
}

// listen waits for a notification, a request, or listenCheck, and
// reports whether the connection is still good.
func (o *own) listen(ctx context.Context, conn *pgx.Conn) error {
	wctx, cancel := context.WithTimeout(ctx, listenCheck)
	o.mu.Lock()
	pending := len(o.reqs) > 0
	o.interrupt = cancel
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		o.interrupt = nil
		o.mu.Unlock()
		cancel()
	}()
	if pending {
		return nil
	}
	n, err := conn.WaitForNotification(wctx)
	switch {
	case err == nil:
		o.notify(n.Payload, false)
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case conn.IsClosed():
		return err
	case errors.Is(wctx.Err(), context.DeadlineExceeded):
		return conn.Ping(ctx) // quiet for listenCheck: still there?
	}
	return nil // interrupted for a request
}

// subscribe returns a channel that receives a value whenever key may
// have been answered; cancel ends the subscription.
func (o *own) subscribe(key string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.subs[key] == nil {
		o.subs[key] = map[chan struct{}]bool{}
	}
	o.subs[key][ch] = true
	o.start()
	return ch, func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		delete(o.subs[key], ch)
		if len(o.subs[key]) == 0 {
			delete(o.subs, key)
		}
	}
}

// notify wakes the waiters of key, or of every key when all is set.
func (o *own) notify(key string, all bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for k, chans := range o.subs {
		if !all && k != key {
			continue
		}
		for ch := range chans {
			select {
			case ch <- struct{}{}:
			default: // a wake is already pending
			}
		}
	}
}

// close ends the owner and its connection: the server releases the
// process's locks.
func (o *own) close() {
	o.mu.Lock()
	stop, done := o.stop, o.done
	o.started, o.stop = false, nil
	o.held = map[int64]string{}
	o.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
