package runflow

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/iostreams"
)

// Timing of the working indicator.
const (
	// workingDelay: a step quicker than this shows nothing, so the line
	// does not flash for a scripted model or a fast tool.
	workingDelay = 300 * time.Millisecond
	workingTick  = 250 * time.Millisecond
)

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// working shows that the agent is working: one quiet line on a terminal's
// standard error ("⠙ working 12s"), rewritten in place and erased before
// anything else is written. Under TERM=dumb it uses no escape sequence
// ("\r" and spaces only). start and stop may be called any number of
// times, from any goroutine; stop returns once the line is gone.
type working struct {
	w           io.Writer
	dumb, color bool

	ctl     sync.Mutex // start and stop
	mu      sync.Mutex // the line
	running bool
	quit    chan struct{}
	done    chan struct{}
	shown   int // cells of what is on the line now; 0 = nothing
}

// newWorking returns the indicator for a run, or nil when none is shown:
// headless (-p) or machine output, or standard error not a terminal.
func newWorking(ios *iostreams.IOStreams, o Options) *working {
	w := ios.StatusOut()
	if w == nil || o.print || o.format != outText {
		return nil
	}
	return &working{w: w, dumb: ios.IsDumb(), color: ios.ColorEnabled()}
}

// start shows the indicator from now on, counting from now; it is a no-op
// while it runs.
func (w *working) start() {
	if w == nil {
		return
	}
	w.ctl.Lock()
	defer w.ctl.Unlock()
	if w.running {
		return
	}
	w.running = true
	w.quit, w.done = make(chan struct{}), make(chan struct{})
	go w.run(time.Now(), w.quit, w.done)
}

func (w *working) run(since time.Time, quit, done chan struct{}) {
	defer close(done)
	delay := time.NewTimer(workingDelay)
	defer delay.Stop()
	select {
	case <-quit:
		return
	case <-delay.C:
	}
	tick := time.NewTicker(workingTick)
	defer tick.Stop()
	for i := 0; ; i++ {
		w.draw(fmt.Sprintf("%s working %ds", spinner[i%len(spinner)], int(time.Since(since).Seconds())))
		select {
		case <-quit:
			return
		case <-tick.C:
		}
	}
}

// stop erases the indicator and returns once it is gone.
func (w *working) stop() {
	if w == nil {
		return
	}
	w.ctl.Lock()
	defer w.ctl.Unlock()
	if !w.running {
		return
	}
	w.running = false
	close(w.quit)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shown == 0 {
		return
	}
	if w.dumb {
		fmt.Fprint(w.w, "\r"+strings.Repeat(" ", w.shown)+"\r")
	} else {
		fmt.Fprint(w.w, "\r\x1b[K")
	}
	w.shown = 0
}

func (w *working) draw(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len([]rune(s))
	switch {
	case w.dumb:
		fmt.Fprint(w.w, "\r"+s+strings.Repeat(" ", max(w.shown-n, 0)))
	case w.color:
		fmt.Fprint(w.w, "\r\x1b[90m"+s+"\x1b[0m\x1b[K")
	default:
		fmt.Fprint(w.w, "\r"+s+"\x1b[K")
	}
	w.shown = n
}
