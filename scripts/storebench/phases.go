package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sync"
	"time"
)

// The phases: how the runs wait for their answer.
const (
	// phaseLive: each run asks through the inbox and waits, alive.
	phaseLive = "live"
	// phaseSuspended: each run stops to wait (exit 6), as a CI job
	// does, and askuser resume --wait parks on the session.
	phaseSuspended = "suspended"
)

// latency is the time from an answer's POST to its run going on.
type latency struct{ p50, p99 time.Duration }

// answered is what the stream of a run shows once it has the answer.
const answered = `"selectedOptions":["SQLite"]`

// liveRuns starts o.runs live runs asking through the inbox, and answers
// them on serve's page.
func liveRuns(o options, env []string, page *inbox) (latency, error) {
	runs := make([]*proc, o.runs)
	ids := make([]string, o.runs)
	idPattern := regexp.MustCompile(`"session_id":"([0-9a-f-]{36})"`)
	for i := range runs {
		r, err := start(o.bin, env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox",
			"--script", o.script, "benchmark run")
		if err != nil {
			return latency{}, err
		}
		defer r.stop()
		runs[i] = r
	}
	for i, r := range runs {
		l, err := r.until(`"session_id"`)
		if err != nil {
			return latency{}, err
		}
		ids[i] = idPattern.FindStringSubmatch(l.text)[1]
	}
	return answerAll(page, ids, runs)
}

// suspendedRuns starts o.runs runs that stop to wait, parks askuser
// resume --wait on each session, and answers them on serve's page.
func suspendedRuns(o options, env []string, page *inbox) (latency, error) {
	ids, err := suspendAll(o, env)
	if err != nil {
		return latency{}, err
	}
	waiters := make([]*proc, len(ids))
	for i, id := range ids {
		w, err := start(o.bin, env, "resume", "--wait", id, "-p", "--output-format", "stream-json")
		if err != nil {
			return latency{}, err
		}
		defer w.stop()
		waiters[i] = w
	}
	// Its question on the stream means resume --wait holds the session
	// (it opened it first) and asks through the inbox: serve will keep
	// the answer for it rather than resume the session itself.
	for _, w := range waiters {
		if _, err := w.until(`"type":"question"`); err != nil {
			return latency{}, err
		}
	}
	return answerAll(page, ids, waiters)
}

// suspendAll runs o.runs runs at once as a CI job would: headless, with
// an answers file that lacks the question and says to suspend, so each
// records the question and exits 6. It returns their session ids.
func suspendAll(o options, env []string) ([]string, error) {
	ids := make([]string, o.runs)
	errs := make([]error, o.runs)
	var wg sync.WaitGroup
	for i := range o.runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = suspend(o, env)
		}()
	}
	wg.Wait()
	return ids, errors.Join(errs...)
}

func suspend(o options, env []string) (string, error) {
	cmd := exec.Command(o.bin, "run", "-p", "--output-format", "json", "--answers", o.answers,
		"--script", o.script, "benchmark run")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 6 {
		return "", fmt.Errorf("a run that should stop to wait (exit 6): %v: %.300s", err, out)
	}
	var res struct {
		Subtype   string `json:"subtype"`
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(out, &res); err != nil || res.Subtype != "waiting_on_question" {
		return "", fmt.Errorf("a suspended run's result: %v: %.300s", err, out)
	}
	return res.SessionID, nil
}

// answerAll answers session ids[i] on serve's page, in a random order,
// and returns the median and 99th percentile of the time from an
// answer's POST to the stream of procs[i] showing it.
func answerAll(page *inbox, ids []string, procs []*proc) (latency, error) {
	var took []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, len(ids))
	for _, i := range rand.Perm(len(ids)) {
		post, err := page.form(ids[i])
		if err != nil {
			return latency{}, err
		}
		wg.Add(1)
		sent := time.Now()
		if err := post(); err != nil {
			return latency{}, err
		}
		go func() {
			defer wg.Done()
			l, err := procs[i].until(answered)
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
		return latency{}, err
	}
	slices.Sort(took)
	return latency{took[len(took)/2], took[min(len(took)-1, len(took)*99/100)]}, nil
}
