package postgres

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"strconv"
	"sync"
	"time"
)

// The shared watch (watch.go): the processes of one state directory
// (Options.Share) over one store share one look. The first to wait
// listens on a socket of the machine named by the two (hub_*.go: Linux's
// abstract sockets, which vanish with their process, so the next to wait
// takes the name over at once); the others connect to it. Each follower
// tells the watch its holder and the sets it waits on; the watch renews
// that holder while the follower stays connected, and tells it when its
// set is answered, or that its holder is to be made again.
//
// Only a process of the same user is let in, either way (the socket's
// peer credentials): a set's key goes to nobody else, and nobody else can
// stand as the watch. A follower that disconnects and whose process is
// gone (kill -9) has its holder removed at once: what it held is free.
//
// Messages are JSON lines, {"op":…,"arg":…}.

// Operations of the shared watch's messages.
const (
	msgHolder   = "holder"   // follower → watch: renew this holder
	msgWatch    = "watch"    // follower → watch: tell me when this set is answered
	msgUnwatch  = "unwatch"  // follower → watch: no longer
	msgAnswered = "answered" // watch → follower: this set was answered
	msgRestore  = "restore"  // watch → follower: your holder's row is gone; make it again
)

type hubMsg struct {
	Op  string `json:"op"`
	Arg string `json:"arg"`
}

// hubWriteTimeout bounds a write to the other end: one that does not read
// is dropped.
const hubWriteTimeout = 2 * time.Second

// hubName names the shared watch of the state directory share over the
// store, for this user on this machine (a container with process ids of
// its own is a machine of its own); "" when nothing is shared.
func (db *DB) hubName() string {
	if db.opts.Share == "" {
		return ""
	}
	h := sha256.New()
	for _, s := range []string{db.opts.Share, db.leases.me.machine, db.cfg.Host, strconv.Itoa(int(db.cfg.Port)), db.cfg.Database, db.cfg.User} {
		h.Write([]byte(s + "\x00"))
	}
	return "askuser-watch-1-" + hex.EncodeToString(h.Sum(nil))[:32]
}

// join makes this process the shared watch, or a follower of it; neither
// (both nil) when nothing is shared or the watch cannot be reached.
func (w *watcher) join() (*hub, *link) {
	name := w.db.hubName()
	if name == "" {
		return nil, nil
	}
	for range 3 {
		if ln, err := listenHub(name); err == nil {
			return &hub{ln: ln, followers: map[*follower]bool{}}, nil
		}
		if c, err := dialHub(name); err == nil {
			return nil, &link{c: c}
		}
		time.Sleep(jitter(10 * time.Millisecond)) // between its bind and its listen
	}
	return nil, nil
}

// link is a follower's connection to the shared watch.
type link struct {
	c  net.Conn
	mu sync.Mutex
}

// send sends one message; a failure ends the link (its reader sees it).
func (l *link) send(op, arg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, _ := json.Marshal(hubMsg{Op: op, Arg: arg})
	_ = l.c.SetWriteDeadline(time.Now().Add(hubWriteTimeout))
	if _, err := l.c.Write(append(b, '\n')); err != nil {
		l.c.Close()
	}
}

// follow follows the shared watch over l until it ends (the watch's
// process ended) or ctx does.
func (w *watcher) follow(ctx context.Context, l *link) {
	w.mu.Lock()
	w.link = l
	if w.holder != "" {
		l.send(msgHolder, w.holder)
	}
	for k := range w.subs {
		l.send(msgWatch, k)
	}
	w.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { l.c.Close() })
	defer stop()
	sc := bufio.NewScanner(l.c)
	for sc.Scan() {
		var m hubMsg
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Op {
		case msgAnswered:
			w.wake(m.Arg)
		case msgRestore:
			go func() {
				rctx, cancel := context.WithTimeout(context.Background(), holderTTL)
				defer cancel()
				_ = w.db.leases.restore(rctx)
			}()
		}
	}
	l.c.Close()
	w.mu.Lock()
	w.link = nil
	w.mu.Unlock()
}

// hub is the shared watch, in the process that is it.
type hub struct {
	ln net.Listener

	mu        sync.Mutex
	followers map[*follower]bool
}

// follower is a process that follows the watch.
type follower struct {
	c      net.Conn
	pid    int64
	holder string
	keys   map[string]bool
	mu     sync.Mutex // writes
}

// serve lets followers in until the listener closes.
func (h *hub) serve(ctx context.Context, w *watcher) {
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return
		}
		pid, ok := peerOfSameUser(c)
		if !ok {
			c.Close()
			continue
		}
		f := &follower{c: c, pid: pid, keys: map[string]bool{}}
		h.mu.Lock()
		h.followers[f] = true
		h.mu.Unlock()
		go h.read(ctx, w, f)
	}
}

// read applies a follower's messages until it disconnects; a follower
// whose process is gone has its holder removed.
func (h *hub) read(ctx context.Context, w *watcher, f *follower) {
	sc := bufio.NewScanner(f.c)
	for sc.Scan() {
		var m hubMsg
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		h.mu.Lock()
		switch m.Op {
		case msgHolder:
			f.holder = m.Arg
		case msgWatch:
			f.keys[m.Arg] = true
		case msgUnwatch:
			delete(f.keys, m.Arg)
		}
		h.mu.Unlock()
	}
	f.c.Close()
	h.mu.Lock()
	delete(h.followers, f)
	holder := f.holder
	h.mu.Unlock()
	if holder == "" || w.db.leases.me.machine == "" || !processGone(f.pid) {
		return // gone on its own, having given back what it held
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	_ = w.db.leases.remove(rctx, []string{holder})
}

// wanted is what the followers wait on, and their holders.
func (h *hub) wanted() (keys, ids []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[string]bool{}
	for f := range h.followers {
		for k := range f.keys {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		if f.holder != "" {
			ids = append(ids, f.holder)
		}
	}
	return keys, ids
}

// answered tells the followers waiting on key.
func (h *hub) answered(key string) {
	h.each(func(f *follower) bool { return f.keys[key] }, msgAnswered, key)
}

// restore tells holder id's follower to make its holder again.
func (h *hub) restore(id string) {
	h.each(func(f *follower) bool { return f.holder == id }, msgRestore, id)
}

func (h *hub) each(which func(*follower) bool, op, arg string) {
	h.mu.Lock()
	var to []*follower
	for f := range h.followers {
		if which(f) {
			to = append(to, f)
		}
	}
	h.mu.Unlock()
	b, _ := json.Marshal(hubMsg{Op: op, Arg: arg})
	b = append(b, '\n')
	for _, f := range to {
		f.mu.Lock()
		_ = f.c.SetWriteDeadline(time.Now().Add(hubWriteTimeout))
		if _, err := f.c.Write(b); err != nil {
			f.c.Close() // its reader drops it
		}
		f.mu.Unlock()
	}
}

// close stops letting followers in, and drops those in: each takes over
// or follows the next watch.
func (h *hub) close() {
	h.ln.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	for f := range h.followers {
		f.c.Close()
	}
}
