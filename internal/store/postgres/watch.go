package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Wake-ups. A process that waits for answers looks for them itself, in
// one query for every set it waits on, on a connection made for that
// look and closed at once: it holds no connection while it waits. The
// same look renews the holders it stands for (holder.go), every
// renewEvery.
//
// The processes of one state directory share one look (hub.go): the
// first to wait becomes its watch, looks for all of them, renews their
// holders and tells each when its set is answered, over a socket of the
// machine; when it ends another takes over. A thousand processes waiting
// on one machine cost the store one short connection per look.
//
// How often, and on what connection: while few watches look at once (at
// most heldWatches, as counted at each renewal), each keeps its
// connection between looks and looks every pollHeld: a team of a few
// machines costs the server a few idle connections and a cheap query
// each, ten times a second. Past that, a watch makes a connection for each look and closes
// it, and looks every pollMin, or less often the more watches look, so
// that all of them together make at most pollRate connections a second
// (a new connection costs the server a process and 2-7 ms of CPU). An
// answer wakes its waiter within one look.
//
// Nothing is lost to an outage: a look reads the sets' rows, not events,
// so an answer given while a watch was away is found by its next look.

// Timings of a watch.
const (
	// heldWatches is how many watches may keep a connection between
	// looks.
	heldWatches = 10
	pollHeld    = 100 * time.Millisecond
	// pollHold is how often every watch looks behind a pooler
	// (askuser_watch=hold), however many they are.
	pollHold = 250 * time.Millisecond
	pollMin  = 500 * time.Millisecond
	// pollRate bounds the new connections a second that every watch
	// together makes to look, past heldWatches.
	pollRate = 50
	// waitRecheck is how often a wait reads its set again whatever it is
	// told.
	waitRecheck = 5 * time.Minute
	// soloFor is how long a process that could neither share a watch nor
	// be one looks alone before it tries again.
	soloFor = 30 * time.Second
)

// watcher is this process's part in the wake-ups: its waits, and its
// watch (as the shared one, alone, or following another's).
type watcher struct {
	db *DB

	mu      sync.Mutex
	subs    map[string]map[chan struct{}]bool
	holder  string // this process's holder, once made
	started bool
	stop    context.CancelFunc
	done    chan struct{}
	pollers int       // live watches, as last counted
	renewed time.Time // the last renewal of the holders
	conn    *pgx.Conn // kept between looks while few watches look (run's goroutine only)
	hub     *hub      // while this process is the shared watch
	link    *link     // while it follows another's
	looks   int       // looks made, for tests
}

func newWatcher(db *DB) *watcher {
	w := &watcher{db: db, subs: map[string]map[chan struct{}]bool{}}
	db.leases.onMade = w.madeHolder
	return w
}

// start starts the watch, once. Called with mu held.
func (w *watcher) start() {
	if w.started {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.started, w.stop, w.done = true, cancel, make(chan struct{})
	go func() {
		defer close(w.done)
		w.run(ctx)
	}()
}

// madeHolder is told this process's holder was made: it is renewed from
// now on.
func (w *watcher) madeHolder(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.holder = id
	if w.link != nil {
		w.link.send(msgHolder, id)
	}
	w.start()
}

// subscribe returns a channel that receives a value whenever key may
// have been answered; cancel ends the subscription.
func (w *watcher) subscribe(key string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.subs[key] == nil {
		w.subs[key] = map[chan struct{}]bool{}
		if w.link != nil {
			w.link.send(msgWatch, key)
		}
	}
	w.subs[key][ch] = true
	w.start()
	return ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.subs[key], ch)
		if len(w.subs[key]) == 0 {
			delete(w.subs, key)
			if w.link != nil {
				w.link.send(msgUnwatch, key)
			}
		}
	}
}

// wake wakes the waits of key.
func (w *watcher) wake(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.subs[key] {
		select {
		case ch <- struct{}{}:
		default: // a wake is already pending
		}
	}
}

// run keeps the watch until ctx ends: the shared one, a follower of it,
// or alone for a while when neither can be.
func (w *watcher) run(ctx context.Context) {
	for ctx.Err() == nil {
		h, l := w.join()
		switch {
		case l != nil:
			w.follow(ctx, l)
		case h != nil:
			w.mu.Lock()
			w.hub = h
			w.mu.Unlock()
			go h.serve(ctx, w)
			w.poll(ctx, 0)
			h.close()
			w.mu.Lock()
			w.hub = nil
			w.mu.Unlock()
		default:
			w.poll(ctx, soloFor)
		}
	}
}

// poll looks every period until ctx ends, or for d when d > 0.
func (w *watcher) poll(ctx context.Context, d time.Duration) {
	defer func() {
		if w.conn != nil {
			w.conn.Close(context.Background())
			w.conn = nil
		}
	}()
	var end <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		end = t.C
	}
	failing := time.Duration(0)
	for {
		wait := w.period()
		if failing > wait {
			wait = failing
		}
		t := time.NewTimer(jitter(wait))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-end:
			t.Stop()
			return
		case <-t.C:
		}
		if err := w.look(ctx); err != nil && ctx.Err() == nil {
			w.db.unreached(err)
			failing = min(max(2*failing, retryFirst), retryMost)
		} else if failing > 0 {
			w.db.reached()
			failing = 0
		}
	}
}

// period is how long a watch waits between looks.
func (w *watcher) period() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.pollers <= heldWatches:
		return pollHeld
	case w.db.holdWatch:
		return pollHold
	}
	return max(pollMin, time.Duration(float64(time.Second)*float64(w.pollers)/pollRate))
}

// lookCount is how many looks this process made, for tests.
func (w *watcher) lookCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.looks
}

// pollCount is how many watches look, as last counted, for tests.
func (w *watcher) pollCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pollers
}

// close ends the watch.
func (w *watcher) close() {
	w.mu.Lock()
	stop, done := w.stop, w.done
	w.started, w.stop = false, nil
	w.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
