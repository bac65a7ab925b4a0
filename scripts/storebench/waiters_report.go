package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// waiterOptions are the waiters benchmark's flags (waiters.go).
type waiterOptions struct {
	waiters, sample int
	kinds           []string
	layouts         []int
	baseline        string
	idle            time.Duration
	pooler          bool
	questions       string
}

// waiterKinds are the waiting processes the benchmark can start.
var waiterKinds = []string{"run", "ask", "resume"}

// waiterFlagSet declares the waiters benchmark's flags, and returns what
// checks them once parsed.
func waiterFlagSet(o *waiterOptions) func() error {
	flag.IntVar(&o.waiters, "waiters", 0, "run the waiters benchmark with this many waiting processes (0: the answers benchmark)")
	flag.IntVar(&o.sample, "sample", 50, "waiters answered to time the wake")
	flag.StringVar(&o.baseline, "baseline", "main", "git revision whose binary is measured beside this tree's (\"\": none)")
	flag.DurationVar(&o.idle, "idle", 20*time.Second, "how long the waiters are watched waiting")
	flag.BoolVar(&o.pooler, "pooler", false, "also run the last layout through PgBouncer in transaction mode, with askuser_watch=hold")
	kinds := flag.String("kinds", strings.Join(waiterKinds, ","), "waiting processes, started in turn: run, ask, resume")
	layouts := flag.String("machines", "1,all", "layouts of this tree's waiters: on how many machines (state directories); all: one each")
	return func() error { return checkWaiterFlags(o, *kinds, *layouts) }
}

// checkWaiterFlags checks the waiters benchmark's flags and sets o's
// kinds and layouts.
func checkWaiterFlags(o *waiterOptions, kinds, layouts string) error {
	if o.waiters < 0 || o.sample < 1 || o.idle < time.Second {
		return fmt.Errorf("-waiters must be at least 0, -sample at least 1 and -idle at least 1s, got %d, %d and %s", o.waiters, o.sample, o.idle)
	}
	o.kinds, o.layouts = nil, nil
	for _, k := range strings.Split(kinds, ",") {
		k = strings.TrimSpace(k)
		if !slices.Contains(waiterKinds, k) {
			return fmt.Errorf("-kinds: no kind %.60q; give run, ask or resume, comma-separated", k)
		}
		o.kinds = append(o.kinds, k)
	}
	for _, l := range strings.Split(layouts, ",") {
		l = strings.TrimSpace(l)
		n, err := strconv.Atoi(l)
		switch {
		case l == "all":
			n = max(o.waiters, 1)
		case err != nil || n < 1:
			return fmt.Errorf("-machines: %.60q is not a number of machines (or all)", l)
		}
		o.layouts = append(o.layouts, n)
	}
	return nil
}

// runWaiters runs the waiters benchmark: the baseline's binary once, this
// tree's once per layout, each on a new database of one server with the
// stock max_connections.
func runWaiters(o options) error {
	pg, err := startServer("max_connections=100")
	if err != nil {
		return err
	}
	defer pg.close()
	var rs []waiterRun
	if o.baseline != "" {
		base, short, err := buildAt(o.baseline, o.work)
		if err != nil {
			return err
		}
		label := short
		if short != o.baseline && !strings.HasPrefix(o.baseline, short) {
			label = o.baseline + " " + short
		}
		r, err := waitersBench(o, pg, base, label, 1)
		if err != nil {
			return fmt.Errorf("%s: %w", o.baseline, err)
		}
		rs = append(rs, r)
	}
	layouts := o.layouts
	if o.pooler {
		if pg.bouncer, err = pg.srv.PgBouncer("transaction"); err != nil {
			return err
		}
		layouts = append(layouts, -layouts[len(layouts)-1])
	}
	for _, m := range layouts {
		label := fmt.Sprintf("this, %d machine", max(m, -m))
		if m > 1 || m < -1 {
			label += "s"
		}
		if m < 0 {
			m, label = -m, label+", PgBouncer"
		}
		r, err := waitersBench(o, pg, o.bin, label, m)
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		rs = append(rs, r)
	}
	reportWaiters(os.Stdout, o, rs)
	return nil
}

// reportWaiters prints each run's figures, and this tree's over the
// baseline's.
func reportWaiters(w io.Writer, o options, rs []waiterRun) {
	fmt.Fprintf(w, "storebench: %d waiting processes (%s, in turn), started at once on one PostgreSQL (max_connections=100); "+
		"%s watched waiting; %d answered at random on serve's page (server CPU: PostgreSQL's, and the pooler's)\n\n", o.waiters, strings.Join(o.kinds, ", "), o.idle, o.sample)
	rows := [][]string{{"binary", "waiting", "ended", "conns max", "conns median", "RSS/waiter", "PSS/waiter", "own/waiter",
		"CPU/waiter", "server CPU", "wake p50", "wake p99", "answered", "all waiting in"}}
	for _, r := range rs {
		rows = append(rows, []string{r.label, strconv.Itoa(r.waiting), strconv.Itoa(r.ended), strconv.Itoa(r.connsMax), strconv.Itoa(r.connsIdle),
			mb(r.mem.rss), mb(r.mem.pss), mb(r.mem.anon), fmt.Sprintf("%.3f%%", r.cpuWaiter), fmt.Sprintf("%.1f%%", r.cpuServer),
			ms(r.wake.p50), ms(r.wake.p99), fmt.Sprintf("%d of %d", r.woken, r.woken+r.lost), r.took.Round(100 * time.Millisecond).String()})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, row := range rows {
		for i, c := range row {
			fmt.Fprintf(w, "| %-*s ", widths[i], c)
		}
		fmt.Fprintln(w, "|")
	}
	if len(rs) > 1 && rs[0].waiting > 0 && o.baseline != "" {
		b := rs[0]
		for _, r := range rs[1:] {
			fmt.Fprintf(w, "\n%s / %s: waiting %.1f×, connections per waiter %.3f×, wake p99 %s\n", r.label, b.label,
				float64(r.waiting)/float64(b.waiting), perWaiter(r)/perWaiter(b), ratio(r.wake.p99, b.wake.p99))
		}
	}
}

func perWaiter(r waiterRun) float64 { return float64(r.connsMax) / float64(max(r.waiting, 1)) }

func mb(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }

func errorsJoin(errs []error) error { return errors.Join(errs...) }
