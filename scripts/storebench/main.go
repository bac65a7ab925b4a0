// Command storebench measures the team store (issue 26) against the files
// store, on this machine, in the same run: with 1,000 sessions already
// waiting, 50 runs ask through the inbox at once and wait; each is
// answered on askuser serve's page, in a random order, and the time from
// the answer's POST to the run going on (its stream showing the answer)
// is taken; then `askuser sessions --waiting` and the inbox's first page
// are timed over the 1,050 waiting sessions. It prints each store's
// figures and the team store's as a ratio of the files store's.
//
//	go run ./scripts/storebench [-runs 50] [-waiting 1000] [-lists 5]
//
// It starts its own PostgreSQL (internal/store/pgtest: Debian's
// postgresql package, as an unprivileged user when run as root) and
// builds askuser. It is a benchmark, not a test: figures taken on a busy
// machine are slower, and only the ratios compare.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// script asks one question, then ends.
const script = `model: scripted-bench
turns:
  - text: One thing first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
  - text: "Done: {{tool_results}}"
`

type options struct {
	runs, waiting, lists int
	work, bin, script    string
}

func main() {
	o := options{}
	flag.IntVar(&o.runs, "runs", 50, "live runs asking at once")
	flag.IntVar(&o.waiting, "waiting", 1000, "sessions already waiting")
	flag.IntVar(&o.lists, "lists", 5, "timings of each listing (the median is shown)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "storebench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	work, err := os.MkdirTemp("", "askuser-storebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o.work, o.bin, o.script = work, filepath.Join(work, "askuser"), filepath.Join(work, "bench.yaml")
	if err := os.WriteFile(o.script, []byte(script), 0o600); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", o.bin, ".")
	build.Env, build.Stderr = append(os.Environ(), "CGO_ENABLED=0"), os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build askuser: %w", err)
	}
	pg, err := startServer()
	if err != nil {
		return err
	}
	defer pg.close()
	var results []result
	for _, st := range []storeKind{{name: "files"}, {name: "postgres", url: pg.url}} {
		fmt.Fprintf(os.Stderr, "storebench: %s store: seeding %d waiting sessions\n", st.name, o.waiting)
		r, err := measure(o, st)
		if err != nil {
			return fmt.Errorf("%s store: %w", st.name, err)
		}
		results = append(results, r)
	}
	report(os.Stdout, o, results)
	return nil
}

// storeKind is a store to measure: files in a state directory, or the
// team store at url.
type storeKind struct{ name, url string }

// result is one store's figures.
type result struct {
	name                  string
	p50, p99              time.Duration
	sessions, inbox       time.Duration
	inboxBytes, listBytes int
}

// measure runs the benchmark on one store.
func measure(o options, st storeKind) (result, error) {
	state := filepath.Join(o.work, st.name)
	env := []string{"ASKUSER_STATE_DIR=" + state, "ASKUSER_STORE=" + st.url, "ASKUSER_MACHINE=bench",
		"ASKUSER_FRONTEND=", "ASKUSER_NOTIFY_CMD=", "XDG_CONFIG_HOME=" + filepath.Join(o.work, "config")}
	if err := seed(state, st.url, o.waiting); err != nil {
		return result{}, fmt.Errorf("seed: %w", err)
	}
	serve, page, err := startServe(o.bin, env)
	if err != nil {
		return result{}, err
	}
	defer serve.stop()
	r := result{name: st.name}
	if r.p50, r.p99, err = answerRuns(o, env, page); err != nil {
		return r, err
	}
	// The runs are done: 1,000 sessions wait, plus those the runs left.
	if r.sessions, r.listBytes, err = timeList(o, env); err != nil {
		return r, err
	}
	r.inbox, r.inboxBytes, err = timePage(o, page)
	return r, err
}

// proc is an askuser process and the lines of its standard output, each
// with when it was read.
type proc struct {
	cmd   *exec.Cmd
	lines chan line
	err   strings.Builder
}

type line struct {
	text string
	at   time.Time
}

func start(bin string, env []string, args ...string) (*proc, error) {
	p := &proc{cmd: exec.Command(bin, args...), lines: make(chan line, 256)}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = &p.err
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			p.lines <- line{sc.Text(), time.Now()}
		}
		close(p.lines)
	}()
	return p, nil
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	_ = p.cmd.Wait()
}

// until waits for a line that contains want, for at most a minute.
func (p *proc) until(want string) (line, error) {
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return line{}, fmt.Errorf("askuser ended before printing %q: %s", want, p.err.String())
			}
			if strings.Contains(l.text, want) {
				return l, nil
			}
		case <-timeout:
			return line{}, fmt.Errorf("no %q within a minute: %s", want, p.err.String())
		}
	}
}

// answerRuns starts o.runs live runs asking through the inbox, answers
// them on serve's page in a random order, and returns the median and
// 99th percentile of the time from an answer's POST to its run going on.
func answerRuns(o options, env []string, page *inbox) (p50, p99 time.Duration, err error) {
	runs := make([]*proc, o.runs)
	ids := make([]string, o.runs)
	idPattern := regexp.MustCompile(`"session_id":"([0-9a-f-]{36})"`)
	for i := range runs {
		if runs[i], err = start(o.bin, env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox",
			"--script", o.script, "benchmark run"); err != nil {
			return 0, 0, err
		}
		defer runs[i].stop()
	}
	for i, r := range runs {
		l, err := r.until(`"session_id"`)
		if err != nil {
			return 0, 0, err
		}
		ids[i] = idPattern.FindStringSubmatch(l.text)[1]
	}
	order := rand.Perm(o.runs)
	var took []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, o.runs)
	for _, i := range order {
		post, err := page.form(ids[i])
		if err != nil {
			return 0, 0, err
		}
		wg.Add(1)
		sent := time.Now()
		if err := post(); err != nil {
			return 0, 0, err
		}
		go func() {
			defer wg.Done()
			l, err := runs[i].until(`"selectedOptions":["SQLite"]`)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			took = append(took, l.at.Sub(sent))
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, 0, err
	}
	slices.Sort(took)
	return took[len(took)/2], took[min(len(took)-1, len(took)*99/100)], nil
}

// timeList times askuser sessions --waiting, and returns the median and
// what it printed's size.
func timeList(o options, env []string) (time.Duration, int, error) {
	var took []time.Duration
	size := 0
	for range o.lists {
		cmd := exec.Command(o.bin, "sessions", "--waiting", "--all")
		cmd.Env = append(os.Environ(), env...)
		began := time.Now()
		out, err := cmd.Output()
		if err != nil {
			return 0, 0, fmt.Errorf("askuser sessions: %w", err)
		}
		took, size = append(took, time.Since(began)), len(out)
	}
	slices.Sort(took)
	return took[len(took)/2], size, nil
}

// timePage times the inbox's first page, and returns the median and its
// size.
func timePage(o options, page *inbox) (time.Duration, int, error) {
	var took []time.Duration
	size := 0
	for range o.lists {
		began := time.Now()
		body, err := page.get("")
		if err != nil {
			return 0, 0, err
		}
		took, size = append(took, time.Since(began)), len(body)
	}
	slices.Sort(took)
	return took[len(took)/2], size, nil
}

// report prints each store's figures, and the team store's over the
// files store's.
func report(w io.Writer, o options, rs []result) {
	fmt.Fprintf(w, "storebench: %d live runs answered in a random order over %d waiting sessions; listings over %d waiting (median of %d)\n\n",
		o.runs, o.waiting, o.waiting+o.runs, o.lists)
	fmt.Fprintf(w, "%-9s %12s %12s %16s %16s\n", "store", "answer p50", "answer p99", "sessions --all", "inbox page")
	for _, r := range rs {
		fmt.Fprintf(w, "%-9s %12s %12s %16s %16s\n", r.name, ms(r.p50), ms(r.p99),
			fmt.Sprintf("%s (%d KB)", ms(r.sessions), r.listBytes/1024), fmt.Sprintf("%s (%d KB)", ms(r.inbox), r.inboxBytes/1024))
	}
	if len(rs) == 2 {
		f, p := rs[0], rs[1]
		fmt.Fprintf(w, "%-9s %12s %12s %16s %16s\n", "pg/files", ratio(p.p50, f.p50), ratio(p.p99, f.p99), ratio(p.sessions, f.sessions), ratio(p.inbox, f.inbox))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func ratio(a, b time.Duration) string { return fmt.Sprintf("%.2f×", float64(a)/float64(b)) }
