package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Waking up: an answer's transaction notifies answerChannel with the set's
// key, and nothing else (a payload is seen by every listener of the
// database). One connection per process listens, outside the pool, and
// wakes the waiters of that key, who then read the row.
//
// A notification sent while the listener is disconnected is lost, so
// after every (re)connect the listener wakes every waiter, and each reads
// its row again: an answer given while the server restarted, or while
// the listener was away, is found by that read.
const answerChannel = "askuser_answer"

// Timings of the listener.
const (
	// listenCheck is how long the listener waits for a notification
	// before checking that its connection is alive: a connection that
	// died without a word is found within it.
	listenCheck = 30 * time.Second
	retryFirst  = 100 * time.Millisecond
	retryMost   = 2 * time.Second
)

type waker struct {
	db *DB

	mu      sync.Mutex
	subs    map[string]map[chan struct{}]bool
	running bool
	cancel  context.CancelFunc
	// beforeListen, in tests, runs before each LISTEN.
	beforeListen func()
	// connects counts the listener's connections, for tests.
	connects int
}

func newWaker(db *DB) *waker { return &waker{db: db, subs: map[string]map[chan struct{}]bool{}} }

// subscribe returns a channel that receives a value whenever key may
// have been answered; cancel ends the subscription.
func (w *waker) subscribe(key string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.subs[key] == nil {
		w.subs[key] = map[chan struct{}]bool{}
	}
	w.subs[key][ch] = true
	if !w.running {
		ctx, cancel := context.WithCancel(context.Background())
		w.running, w.cancel = true, cancel
		go w.listen(ctx)
	}
	return ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.subs[key], ch)
		if len(w.subs[key]) == 0 {
			delete(w.subs, key)
		}
	}
}

// notify wakes the waiters of key, or of every key when all is set.
func (w *waker) notify(key string, all bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, chans := range w.subs {
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

// listen keeps a listening connection until ctx ends, reconnecting when
// it drops.
func (w *waker) listen(ctx context.Context) {
	wait := retryFirst
	for ctx.Err() == nil {
		err := w.session(ctx)
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

// session is one listening connection's life: connect, LISTEN, wake
// everyone to read again, then pass notifications on until it fails.
func (w *waker) session(ctx context.Context) error {
	conn, err := w.db.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	w.mu.Lock()
	hook := w.beforeListen
	w.connects++
	w.mu.Unlock()
	if hook != nil {
		hook()
	}
	if _, err := conn.Exec(ctx, "LISTEN "+answerChannel); err != nil {
		return err
	}
	w.notify("", true)
	for {
		wctx, cancel := context.WithTimeout(ctx, listenCheck)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			w.notify(n.Payload, false)
		case ctx.Err() != nil:
			return ctx.Err()
		case wctx.Err() != nil && !conn.IsClosed():
			if err := conn.Ping(ctx); err != nil {
				return err
			}
		default:
			return err
		}
	}
}

func (w *waker) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cancel != nil {
		w.cancel()
	}
}

// notifyTx sends key's notification with tx: it is delivered when tx
// commits, and never if it does not.
func notifyTx(ctx context.Context, tx pgx.Tx, key string) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, answerChannel, key)
	return err
}
