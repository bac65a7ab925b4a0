// Command storebench measures the team store (issue 26) against the files
// store, on this machine, in the same run. With 1,000 sessions already
// waiting, it times the answer reaching a run in two phases, each of 50
// runs answered on askuser serve's page in a random order:
//
//   - live: the runs ask through the inbox at once and wait, alive;
//   - suspended: the runs stop to wait (exit 6), as a CI job does with
//     an answers file that lacks the question and says to suspend, and
//     then 50 askuser resume --wait processes park on the sessions.
//
// Each phase takes the time from an answer's POST to the run's stream
// showing the answer (the live run's, or resume --wait's). Then `askuser
// sessions --waiting` and the inbox's first page are timed over the
// sessions still waiting. It prints each store's figures and the team
// store's as a ratio of the files store's.
//
//	go run ./scripts/storebench [-runs 50] [-waiting 1000] [-lists 5] [-phases live,suspended]
//
// It starts its own PostgreSQL (internal/store/pgtest: Debian's
// postgresql package, as an unprivileged user when run as root) and
// builds askuser. It is a benchmark, not a test: figures taken on a busy
// machine are slower, and only the ratios compare.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
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

// questionsFile is askuser ask's question: the script's.
const questionsFile = `{"questions":[{"question":"Which database should we use?","header":"Database","multiSelect":false,` +
	`"options":[{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}]}]}`

// answersFile is a CI job's: it answers what was known in advance, and
// leaves the script's question pending.
const answersFile = `unanswered: suspend
answers:
  Region: eu-north
`

type options struct {
	runs, waiting, lists       int
	phases                     []string
	work, bin, script, answers string
	waiterOptions
}

func main() {
	o := options{}
	flag.IntVar(&o.runs, "runs", 50, "runs answered in each phase")
	flag.IntVar(&o.waiting, "waiting", 1000, "sessions already waiting")
	flag.IntVar(&o.lists, "lists", 5, "timings of each listing (the median is shown)")
	phases := flag.String("phases", phaseLive+","+phaseSuspended, "phases to run, in order: "+phaseLive+", "+phaseSuspended)
	waiterFlags := waiterFlagSet(&o.waiterOptions)
	flag.Parse()
	err := checkFlags(&o, *phases)
	if err == nil {
		err = waiterFlags()
	}
	if err == nil {
		err = run(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "storebench:", err)
		os.Exit(1)
	}
}

// checkFlags checks the flags and sets o.phases from -phases.
func checkFlags(o *options, list string) error {
	if o.runs < 1 || o.waiting < 0 || o.lists < 1 {
		return fmt.Errorf("-runs and -lists must be at least 1 and -waiting at least 0, got %d, %d and %d", o.runs, o.lists, o.waiting)
	}
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		if p != phaseLive && p != phaseSuspended {
			return fmt.Errorf("-phases: no phase %.60q; give %s, %s or both, comma-separated", p, phaseLive, phaseSuspended)
		}
		if !slices.Contains(o.phases, p) {
			o.phases = append(o.phases, p)
		}
	}
	return nil
}

func run(o options) error {
	work, err := os.MkdirTemp("", "askuser-storebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o.work, o.bin = work, filepath.Join(work, "askuser")
	o.script, o.answers = filepath.Join(work, "bench.yaml"), filepath.Join(work, "ci.yaml")
	o.questions = filepath.Join(work, "database.json")
	for name, text := range map[string]string{o.script: script, o.answers: answersFile, o.questions: questionsFile} {
		if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
			return err
		}
	}
	build := exec.Command("go", "build", "-o", o.bin, ".")
	build.Env, build.Stderr = append(os.Environ(), "CGO_ENABLED=0"), os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build askuser: %w", err)
	}
	if o.waiters > 0 {
		return runWaiters(o)
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
	name string
	// answers has a latency per phase, in the order of o.phases.
	answers               []latency
	sessions, inbox       time.Duration
	inboxBytes, listBytes int
	waiting               int
}

// measure runs the benchmark on one store.
func measure(o options, st storeKind) (result, error) {
	state := filepath.Join(o.work, st.name)
	env := []string{"ASKUSER_STATE_DIR=" + state, "ASKUSER_STORE=" + st.url, "ASKUSER_MACHINE=bench",
		"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_ON_UNANSWERED=", "ASKUSER_NOTIFY_CMD=",
		"XDG_CONFIG_HOME=" + filepath.Join(o.work, "config")}
	if err := seed(state, st.url, o.waiting); err != nil {
		return result{}, fmt.Errorf("seed: %w", err)
	}
	serve, page, err := startServe(o.bin, env)
	if err != nil {
		return result{}, err
	}
	defer serve.stop()
	r := result{name: st.name}
	for _, phase := range o.phases {
		fmt.Fprintf(os.Stderr, "storebench: %s store: %s phase, %d runs\n", st.name, phase, o.runs)
		answer := liveRuns
		if phase == phaseSuspended {
			answer = suspendedRuns
		}
		l, err := answer(o, env, page)
		if err != nil {
			return r, fmt.Errorf("%s phase: %w", phase, err)
		}
		r.answers = append(r.answers, l)
	}
	if r.waiting, err = countWaiting(o, env); err != nil {
		return r, err
	}
	if r.sessions, r.listBytes, err = timeList(o, env); err != nil {
		return r, err
	}
	r.inbox, r.inboxBytes, err = timePage(o, page)
	return r, err
}

// countWaiting returns how many sessions askuser sessions --waiting
// lists: the seeded ones, and any the phases left waiting.
func countWaiting(o options, env []string) (int, error) {
	cmd := exec.Command(o.bin, "sessions", "--waiting", "--json")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("askuser sessions --json: %w", err)
	}
	return strings.Count(string(out), "\n"), nil
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
	fmt.Fprintf(w, "storebench: per phase, %d runs answered in a random order over %d waiting sessions "+
		"(live: asking through the inbox; suspended: exit 6, then askuser resume --wait); "+
		"listings over the %d still waiting (median of %d)\n\n", o.runs, o.waiting, rs[0].waiting, o.lists)
	head := []string{"store"}
	for _, p := range o.phases {
		head = append(head, p+" p50", p+" p99")
	}
	rows := [][]string{append(head, "sessions --all", "inbox page")}
	for _, r := range rs {
		row := []string{r.name}
		for _, l := range r.answers {
			row = append(row, ms(l.p50), ms(l.p99))
		}
		rows = append(rows, append(row, fmt.Sprintf("%s (%d KB)", ms(r.sessions), r.listBytes/1024),
			fmt.Sprintf("%s (%d KB)", ms(r.inbox), r.inboxBytes/1024)))
	}
	if len(rs) == 2 {
		f, p := rs[0], rs[1]
		row := []string{"pg/files"}
		for i := range o.phases {
			row = append(row, ratio(p.answers[i].p50, f.answers[i].p50), ratio(p.answers[i].p99, f.answers[i].p99))
		}
		rows = append(rows, append(row, ratio(p.sessions, f.sessions), ratio(p.inbox, f.inbox)))
	}
	for _, row := range rows {
		fmt.Fprintf(w, "%-9s", row[0])
		for _, cell := range row[1:] {
			fmt.Fprintf(w, " %17s", cell)
		}
		fmt.Fprintln(w)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func ratio(a, b time.Duration) string { return fmt.Sprintf("%.2f×", float64(a)/float64(b)) }
