package relay

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Served is a channel a relay may serve, with who may answer through it.
type Served struct {
	Channel channel.Channel
	Allow   channel.AllowList
}

// Config configures a Relay.
type Config struct {
	Mailbox  Mailbox
	Registry Registry
	Sessions Sessions
	// Deliveries records the deliveries the channels took; nil keeps
	// them in this process's memory only (tests).
	Deliveries Deliveries
	// Channels are the channels this process may serve; Hold takes the
	// lock that makes it the one process serving a channel.
	Channels []Served
	Hold     func(name string) (release func(), err error)
	// Lost reports whether this process lost its hold of a channel to
	// another while it could not reach the store (a team store's lease
	// expired); nil: never (a file lock is never lost). A lost channel
	// is no longer served here (hold.go).
	Lost func(name string) bool
	// WaitForHold keeps trying to hold a channel another process holds,
	// and takes it when that one ends (askuser serve, after a live run).
	WaitForHold bool
	// Inbox makes this the inbox's relay (askuser serve): it also sends
	// the sets registered for Inbox, resumes sessions whose sets were
	// answered while nobody waited (Resume), posts what they did next
	// beside the question, and prunes finished entries.
	Inbox bool
	// Resume resumes e's session in the background to take e's answer;
	// Resuming reports whether a resume of the session runs now.
	Resume   func(e session.Entry) error
	Resuming func(sessionID string) bool
	// Link is the inbox page of a set ("" for none), without the page's
	// token: it goes to chat platforms.
	Link func(e session.Entry) string
	// Log receives what went wrong, one line each; nil discards it.
	Log io.Writer
	Now func() time.Time
	// Tick is how often the registry is looked at (500 ms); RetryBase
	// is the first wait after a failed send (a second), doubling.
	Tick, RetryBase time.Duration
	// ExitWait bounds how long Run goes on once ctx ended, to finish
	// its calls and show the outcomes it learnt (exit.go); ExitWait by
	// default.
	ExitWait time.Duration
}

// Timings of a relay.
const (
	defaultTick = 500 * time.Millisecond
	// holdGrace is how long a set asked outside a session may go without
	// its asker's lock before it is taken for dead (the lock is taken
	// just after the set is registered).
	holdGrace = 5 * time.Second
	// journalEvery bounds how often a waiting set's journal is read to
	// learn whether it was settled another way.
	journalEvery = 20 * time.Second
	// PruneAfter is how long a finished set is kept after its widgets
	// show it (and, for a late answer, after what followed was posted).
	PruneAfter = 24 * time.Hour
	// pruneAnyway drops a finished set whose widget could not be updated.
	pruneAnyway = 7 * 24 * time.Hour
)

// Relay serves chat channels for a state directory.
type Relay struct {
	cfg  Config
	wake chan struct{}

	mu          sync.Mutex
	held        map[string]bool
	checked     map[string]time.Time // journal reads per key
	resumes     map[string]*attempts // background resumes per session
	logged      map[string]string    // the last line logged per subject
	later       map[string]time.Time // no reply before then, per channel and key: the platform said so
	pruned      time.Time            // when the mailbox was last pruned (Run's goroutine only)
	prunedTaken time.Time            // when the deliveries taken were last pruned (Run's goroutine only)
	// lastPassed is closed when Run's last pass is done: a channel is
	// held (and shown on) until then.
	lastPassed chan struct{}
	// exitAt is when the calls of a stopping relay are cut, fixed once
	// it stops (exit.go).
	exitAt time.Time
}

type attempts struct {
	n    int
	next time.Time
}

// New returns a relay; Run serves it.
func New(cfg Config) *Relay {
	if cfg.Tick <= 0 {
		cfg.Tick = defaultTick
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = time.Second
	}
	if cfg.ExitWait <= 0 {
		cfg.ExitWait = ExitWait
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Deliveries == nil {
		cfg.Deliveries = &memDeliveries{at: map[string]time.Time{}}
	}
	return &Relay{cfg: cfg, wake: make(chan struct{}, 1), held: map[string]bool{}, checked: map[string]time.Time{},
		resumes: map[string]*attempts{}, logged: map[string]string{}, later: map[string]time.Time{}, lastPassed: make(chan struct{})}
}

// Wake makes the relay look at the registry now.
func (r *Relay) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Holds reports whether this process serves the channel now.
func (r *Relay) Holds(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held[name]
}

func (r *Relay) heldNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for n, on := range r.held {
		if on {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Run serves the channels until ctx ends; then it finishes the calls
// under way and shows the outcomes it learnt on their widgets, for at
// most ExitWait, and returns (exit.go).
func (r *Relay) Run(ctx context.Context) {
	work, release := r.stopping(ctx)
	defer release()
	var wg sync.WaitGroup
	for _, s := range r.cfg.Channels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.serve(ctx, s)
		}()
	}
	t := time.NewTicker(r.cfg.Tick)
	defer t.Stop()
	for ctx.Err() == nil {
		// A pass under way when ctx ends is finished: an update cut
		// half made would wait for the next holder of the channel.
		r.pass(work)
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-r.wake:
		}
	}
	r.flush(work)
	close(r.lastPassed)
	wg.Wait()
}

func (r *Relay) setHeld(name string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.held[name] = on
}

// logf writes a line about subject, unless it is the line written last
// about it: a channel that stays down is not reported every tick. An
// empty line writes nothing, and lets the next line about subject out.
func (r *Relay) logf(subject, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	r.mu.Lock()
	same := r.logged[subject] == line
	r.logged[subject] = line
	r.mu.Unlock()
	if !same && line != "" {
		fmt.Fprintln(r.cfg.Log, line)
	}
}

// wants reports whether entry e is to be sent to channel name by this
// relay.
func (r *Relay) wants(e session.Entry, name string) bool {
	return slices.Contains(e.Channels, name) || r.cfg.Inbox && slices.Contains(e.Channels, Inbox)
}

func (r *Relay) served(name string) (Served, bool) {
	for _, s := range r.cfg.Channels {
		if s.Channel.Name() == name {
			return s, true
		}
	}
	return Served{}, false
}

// setOf is entry e as channel name shows it.
func (r *Relay) setOf(e session.Entry, name string) channel.Set {
	s := channel.Set{Key: e.Key, Rev: e.Rev, Request: e.Request, Title: e.Title, Thread: e.Threads[name]}
	if r.cfg.Link != nil {
		s.Link = r.cfg.Link(e)
	}
	return s
}
