package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// The goals of issue 12 (a lean binary), each a ratio to a baseline
// measured in the same run. A goal whose benchmarks did not run is said
// to be unmeasured, with the reason, never passed over.
const (
	goalVersionKiB   = 8 * 1024 // askuser --version peak RSS
	goalAskXHello    = 2.0      // askuser ask --frontend file, wall time to hello-world
	goalClaudeFaster = 50.0     // a run -p session against Claude Code's
	goalClaudeLess   = 20.0     // peak memory, the same
	goalResumeX      = 1.1      // resuming 1,000 turns to decoding the journal
)

func printGoals(w io.Writer, results []*result) {
	fmt.Fprintln(w, "GOALS (issue 12), against baselines measured in the same run")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "goal\tmeasured\ttarget\tmet")
	find := func(name string) *result {
		for _, r := range results {
			if r.name == name {
				return r
			}
		}
		return nil
	}
	med := func(r *result, unit string) float64 { return median(r.metrics[unit]) }
	row := func(goal, measured, target string, met bool) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", goal, measured, target, map[bool]string{true: "yes", false: "NO"}[met])
	}
	missing := func(goal, why string) { fmt.Fprintf(tw, "%s\tnot measured: %s\t\t\n", goal, why) }

	floor := find("ProcessFloor")
	if size := find("BinarySize"); size != nil {
		a, f, h := med(size, "askuser-bytes"), med(size, "floor-bytes"), med(size, "hello-bytes")
		fmt.Fprintf(tw, "binary size\t%.1f MB: %.2fx the floor (%.1f MB), %.1fx hello-world\t\t\n", a/1e6, a/f, f/1e6, a/h)
	}
	if v := find("ProcessVersion"); v != nil {
		kib := med(v, "maxrss-KiB")
		detail := fmt.Sprintf("%s MiB peak RSS (hello-world %s MiB", mib(kib), mib(med(v, "hello-KiB")))
		if floor != nil {
			detail += fmt.Sprintf("; the floor %s MiB: %.2fx", mib(med(floor, "maxrss-KiB")), kib/med(floor, "maxrss-KiB"))
		}
		row("askuser --version", detail+")", "<= 8 MiB", kib <= goalVersionKiB)
	} else {
		missing("askuser --version", "BenchmarkProcessVersion did not run")
	}
	if a := find("ProcessAskFile"); a != nil {
		x := med(a, "x-hello")
		row("askuser ask --frontend file", fmt.Sprintf("%.2fx hello-world (%s vs %s ms)", x, format(med(a, "ms/run")), format(med(a, "hello-ms/run"))),
			fmt.Sprintf("<= %.0fx", goalAskXHello), x <= goalAskXHello)
	} else {
		missing("askuser ask --frontend file", "BenchmarkProcessAskFile did not run")
	}
	printClaudeGoals(tw, find("ProcessRunPrint/state=disk"), find("ProcessRunPrint/state=tmpfs"), find("ProcessClaudeCodePrint"), row, missing)
	resume, decode := find("SessionLoadResume1000"), find("SessionLoadDecodeBaseline")
	if resume != nil && decode != nil {
		x := med(resume, "ns/op") / med(decode, "ns/op")
		detail := fmt.Sprintf("%.2fx decoding its journal (%s vs %s ms", x, format(med(resume, "ns/op")/1e6), format(med(decode, "ns/op")/1e6))
		if read := find("SessionLoadReadBaseline"); read != nil {
			detail += fmt.Sprintf("; reading it alone %s ms", format(med(read, "ns/op")/1e6))
		}
		row("resuming a 1,000-turn session", detail+")", fmt.Sprintf("<= %.1fx", goalResumeX), x <= goalResumeX)
	} else {
		missing("resuming a 1,000-turn session", "the internal/session benchmarks did not run")
	}
	tw.Flush()
	if floor != nil {
		fmt.Fprintf(w, "the floor, the mandated dependencies alone (scripts/floor --version): %s MiB peak RSS, %s ms, %.2fx hello-world\n",
			mib(med(floor, "maxrss-KiB")), format(med(floor, "ms/run")), med(floor, "x-hello"))
	}
}

// printClaudeGoals compares askuser's run -p session, its journal on disk
// (as by default), with Claude Code's; tmpfs shows what syncing costs.
func printClaudeGoals(tw io.Writer, disk, tmpfs, claude *result, row func(string, string, string, bool), missing func(string, string)) {
	const goal = "run -p session vs Claude Code 2.1.197"
	switch {
	case claude == nil:
		missing(goal, "BenchmarkProcessClaudeCodePrint did not run (it skips when Claude Code 2.1.197 is not installed: scripts/install-clients.sh)")
		return
	case disk == nil:
		missing(goal, "BenchmarkProcessRunPrint did not run")
		return
	}
	ms, cms := median(disk.metrics["ms/run"]), median(claude.metrics["ms/run"])
	kib, ckib := median(disk.metrics["maxrss-KiB"]), median(claude.metrics["maxrss-KiB"])
	faster := fmt.Sprintf("%.1fx faster (%s vs %s ms", cms/ms, format(ms), format(cms))
	if tmpfs != nil {
		t := median(tmpfs.metrics["ms/run"])
		faster += fmt.Sprintf("; journal on tmpfs %s ms: %.1fx", format(t), cms/t)
	}
	row(goal+": time", faster+")", fmt.Sprintf(">= %.0fx", goalClaudeFaster), cms/ms >= goalClaudeFaster)
	row(goal+": peak memory", fmt.Sprintf("%.1fx less (%s vs %s MiB)", ckib/kib, mib(kib), mib(ckib)),
		fmt.Sprintf(">= %.0fx", goalClaudeLess), ckib/kib >= goalClaudeLess)
}

func mib(kib float64) string { return format(kib / 1024) }
