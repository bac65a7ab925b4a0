package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/channel"
)

// The waiters benchmark (-waiters N): N processes wait at once on one
// PostgreSQL with the stock max_connections of 100, as a team's CI jobs
// and laptops do, started in a burst: askuser run --frontend inbox,
// askuser ask --frontend inbox and askuser resume --wait, in turn
// (-kinds). It measures, for a binary built from -baseline (main) and for
// this tree's, in the same run and on the same server:
//
//   - how many wait (their set is in the registry) and how many ended
//     (exited: no connection);
//   - the connections the team's role holds while they wait (serve's
//     included), the most seen;
//   - each waiter's memory (RSS, its share PSS, and its own data) and CPU
//     while it waits, and the server's CPU meanwhile;
//   - the wake: from an answer's POST on serve's page to the waiter going
//     on, over -sample waiters picked at random.
//
// This tree's binary runs once per layout (-machines): the waiters on
// one machine (a state directory: they share one watch of the store), and
// each on a machine of its own (a CI fleet: a watch each).

// waiterRun is the figures of one binary, in one layout.
type waiterRun struct {
	label                string
	started, waiting     int
	ended                int
	connsMax, connsIdle  int
	mem                  memory // averages per waiter, kB
	cpuWaiter, cpuServer float64
	wake                 latency
	woken, lost          int           // of the sample: answered, and not answerable (no page)
	took                 time.Duration // until all waited
}

// waiterProc is one waiting process: how to answer it, and what its
// output says once it has the answer.
type waiterProc struct {
	*proc
	kind string
	page string // its set's page on serve: s/ID or q/KEY
	done string
}

// waitersBench runs the waiters benchmark for binary bin, labelled label,
// on a new database of pg, with the waiters over machines state
// directories.
func waitersBench(o options, pg *pgServer, bin, label string, machines int) (waiterRun, error) {
	r := waiterRun{label: label}
	url, err := pg.teamDB()
	if err != nil {
		return r, err
	}
	if pg.bouncer != nil && strings.Contains(label, "PgBouncer") {
		url = pg.bouncer.URL("team", dbName(url)) + "&askuser_watch=hold"
	}
	dir := filepath.Join(o.work, strings.NewReplacer(" ", "-", "/", "-").Replace(label))
	envOf := func(m string) []string {
		return []string{"ASKUSER_STATE_DIR=" + filepath.Join(dir, m), "ASKUSER_STORE=" + url, "ASKUSER_MACHINE=" + m,
			"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_ON_UNANSWERED=", "ASKUSER_NOTIFY_CMD=",
			"XDG_CONFIG_HOME=" + filepath.Join(o.work, "config")}
	}
	serve, page, err := startServe(bin, envOf("serve"))
	if err != nil {
		return r, err
	}
	defer serve.stop()
	machineOf := func(i int) []string { return envOf("m" + strconv.Itoa(i%machines)) }
	suspended, err := suspendFor(o, bin, machineOf)
	if err != nil {
		return r, err
	}
	fmt.Fprintf(os.Stderr, "storebench: %s: starting %d waiters\n", label, o.waiters)
	began := time.Now()
	ws := make([]*waiterProc, 0, o.waiters)
	defer stopAll(ws)
	for i := range o.waiters {
		w, err := startWaiter(o, bin, machineOf(i), o.kinds[i%len(o.kinds)], i, suspended[i])
		if err != nil {
			return r, err
		}
		ws = append(ws, w)
	}
	r.started = len(ws)
	r.waiting, r.ended = settle(pg, url, ws)
	r.took = time.Since(began)
	said := 0
	for _, w := range ws {
		if w.exited() && said < 3 && bin == o.bin {
			said++
			fmt.Fprintf(os.Stderr, "storebench: %s: a %s waiter ended (exit %d): %.400s\n", label, w.kind, w.cmd.ProcessState.ExitCode(), w.err.String())
		}
	}
	fmt.Fprintf(os.Stderr, "storebench: %s: %d wait, %d ended, in %s; idle for %s\n", label, r.waiting, r.ended, r.took.Round(time.Second), o.idle)
	idle(o, pg, ws, &r)
	r.wake, r.woken, r.lost, err = wake(o, page, ws)
	return r, err
}

// stopAll interrupts every waiter at once, as Ctrl+C does, and waits
// for them to end.
func stopAll(ws []*waiterProc) {
	ws = ws[:cap(ws)]
	for _, w := range ws {
		if w != nil && w.proc != nil {
			_ = w.cmd.Process.Signal(os.Interrupt)
		}
	}
	for _, w := range ws {
		if w != nil && w.proc != nil {
			w.stop()
		}
	}
}

// startWaiter starts waiter i of kind.
func startWaiter(o options, bin string, env []string, kind string, i int, suspended string) (*waiterProc, error) {
	w := &waiterProc{kind: kind, done: answered}
	var err error
	switch kind {
	case "run":
		w.proc, err = start(bin, env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox", "--script", o.script, "benchmark run")
	case "resume":
		w.page = "s/" + suspended
		w.proc, err = start(bin, env, "resume", "--wait", suspended, "-p", "--output-format", "stream-json")
	case "ask":
		id := "bench_" + strconv.Itoa(i)
		w.page, w.done = "q/"+channel.Key("", id), "Selected: SQLite"
		w.proc, err = start(bin, env, "ask", "--frontend", "inbox", "--id", id, o.questions)
	}
	return w, err
}

// suspendFor suspends a session for each resume --wait waiter, eight at
// a time.
func suspendFor(o options, bin string, machineOf func(int) []string) ([]string, error) {
	ids := make([]string, o.waiters)
	errs := make([]error, o.waiters)
	gate := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range o.waiters {
		if o.kinds[i%len(o.kinds)] != "resume" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			gate <- struct{}{}
			defer func() { <-gate }()
			ids[i], errs[i] = suspend(options{bin: bin, script: o.script, answers: o.answers}, machineOf(i))
		}()
	}
	wg.Wait()
	return ids, errorsJoin(errs)
}

// settle waits until every waiter waits (its set is registered) or has
// ended, for at most five minutes, and says how many of each.
func settle(pg *pgServer, url string, ws []*waiterProc) (waiting, ended int) {
	db := dbName(url)
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(500 * time.Millisecond) {
		ended = 0
		for _, w := range ws {
			if w.exited() {
				ended++
			}
		}
		out, _ := pg.srv.SQL(db, "SELECT count(*) FROM registry")
		waiting, _ = strconv.Atoi(out)
		if waiting+ended >= len(ws) || time.Now().After(deadline) {
			return min(waiting, len(ws)-ended), ended
		}
	}
}

// idle measures the waiters while they wait: connections, memory, CPU.
func idle(o options, pg *pgServer, ws []*waiterProc, r *waiterRun) {
	pm := postmasterPID(filepath.Join(pg.srv.Dir, "data"))
	var live []*waiterProc
	for _, w := range ws {
		if !w.exited() {
			live = append(live, w)
		}
	}
	pooler := func() int64 {
		if pg.bouncer == nil {
			return 0
		}
		return cpuTicks(pg.bouncer.PID(), false)
	}
	cpu0, srv0 := waitersTicks(live), serverTicks(pm)+pooler()
	began := time.Now()
	var conns []int
	for time.Since(began) < o.idle {
		time.Sleep(time.Second)
		conns = append(conns, teamConns(pg))
	}
	elapsed := time.Since(began).Seconds()
	cpu1, srv1 := waitersTicks(live), serverTicks(pm)+pooler()
	if n := len(live); n > 0 {
		r.cpuWaiter = 100 * float64(cpu1-cpu0) / clockTicks / elapsed / float64(n)
		for _, w := range live {
			m := memoryOf(w.cmd.Process.Pid)
			r.mem.rss, r.mem.pss, r.mem.anon = r.mem.rss+m.rss, r.mem.pss+m.pss, r.mem.anon+m.anon
		}
		r.mem = memory{r.mem.rss / int64(n), r.mem.pss / int64(n), r.mem.anon / int64(n)}
	}
	r.cpuServer = 100 * float64(srv1-srv0) / clockTicks / elapsed
	if len(conns) > 0 {
		r.connsMax = slices.Max(conns)
		slices.Sort(conns)
		r.connsIdle = conns[len(conns)/2]
	}
}

func waitersTicks(ws []*waiterProc) int64 {
	var t int64
	for _, w := range ws {
		t += cpuTicks(w.cmd.Process.Pid, false)
	}
	return t
}

// teamConns counts the connections of the waiters' role (a superuser's
// psql counts them, in a reserved slot).
func teamConns(pg *pgServer) int {
	out, _ := pg.srv.SQL("postgres", "SELECT count(*) FROM pg_stat_activity WHERE usename = 'team'")
	n, _ := strconv.Atoi(out)
	return n
}

// wake answers o.sample waiters at random on serve's page, one after the
// other, and times each from its POST to its output saying it has the
// answer.
func wake(o options, page *inbox, ws []*waiterProc) (l latency, woken, lost int, err error) {
	var live []*waiterProc
	for _, w := range ws {
		if !w.exited() {
			live = append(live, w)
		}
	}
	rand.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	live = live[:min(o.sample, len(live))]
	var took []time.Duration
	for _, w := range live {
		if w.kind == "run" && w.page == "" {
			l, err := w.until(`"session_id"`)
			if err != nil {
				return latency{}, 0, 0, err
			}
			w.page = "s/" + sessionIDPattern.FindStringSubmatch(l.text)[1]
		}
		post, err := page.formAt(w.page)
		if errors.Is(err, errNoPage) {
			lost++ // alive, and waiting on a set nobody can answer
			continue
		}
		if err != nil {
			return latency{}, 0, 0, err
		}
		if err := post(); errors.Is(err, errNoPage) {
			lost++ // gone between its page and its answer
			continue
		} else if err != nil {
			return latency{}, 0, 0, err
		}
		sent := time.Now()
		l, err := w.until(w.done)
		if err != nil {
			return latency{}, 0, 0, err
		}
		took = append(took, l.at.Sub(sent))
	}
	if len(took) == 0 {
		return latency{}, 0, lost, nil
	}
	slices.Sort(took)
	return latency{took[len(took)/2], took[min(len(took)-1, len(took)*99/100)]}, len(took), lost, nil
}

var sessionIDPattern = regexp.MustCompile(`"session_id":"([0-9a-f-]{36})"`)
