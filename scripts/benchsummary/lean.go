package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// The goals of issue 33 (a lean process), on the release build. Each
// figure comes with its baseline measured in the same run: hello-world
// (scripts/hello) run by run beside askuser, and, when scripts/bench.sh -b
// built one, the askuser of another revision ("before"), whose results
// arrive under the package name beforePrefix+package.
const (
	leanBinaryBytes = 30_000_000 // release binary, stripped
	leanHookKiB     = 18 * 1024  // askuser hook deciding an allowed call: peak RSS
	leanHookXHello  = 5.0        // the same, wall time to hello-world's
	leanRunKiB      = 20 * 1024  // a 2-turn run -p session: peak RSS
	beforePrefix    = "before:"
)

// leanRow is one line of the table: a metric of a benchmark, how to show
// it, and the goal it is held to (none when max is 0).
type leanRow struct {
	what, bench, unit string
	show              func(r *result) string
	max               float64
	goal              string
}

func leanRows() []leanRow {
	rss := func(r *result) string { return mib(med(r, "maxrss-KiB")) + " MiB" }
	wall := func(r *result) string {
		return fmt.Sprintf("%s ms (%.2fx hello-world's %s ms)", format(med(r, "ms/run")), med(r, "x-hello"), format(med(r, "hello-ms/run")))
	}
	size := func(r *result) string { return fmt.Sprintf("%.1f MB", med(r, "askuser-bytes")/1e6) }
	return []leanRow{
		{"release binary, stripped", "BinarySize", "askuser-bytes", size, leanBinaryBytes, "<= 30 MB"},
		{"askuser hook, a Bash call an answers-file rule allows: peak RSS", "ProcessHook", "maxrss-KiB", rss, leanHookKiB, "<= 18 MiB"},
		{"askuser hook, same call: wall", "ProcessHook", "x-hello", wall, leanHookXHello, "<= 5x hello-world"},
		{"a 2-turn run -p (Anthropic): peak RSS", "ProcessRunPrint/state=disk", "maxrss-KiB", rss, leanRunKiB, "<= 20 MiB"},
		{"a 2-turn run -p (Anthropic): wall", "ProcessRunPrint/state=disk", "ms/run", wall, 0, ""},
		{"a 2-turn run -p (OpenAI-compatible): peak RSS", "ProcessRunPrintOpenAI", "maxrss-KiB", rss, leanRunKiB, "<= 20 MiB"},
		{"a 2-turn run -p (OpenAI-compatible): wall", "ProcessRunPrintOpenAI", "ms/run", wall, 0, ""},
		{"--version: peak RSS", "ProcessVersion", "maxrss-KiB", rss, 0, ""},
		{"hello-world (the baseline): peak RSS", "ProcessHello", "maxrss-KiB", rss, 0, ""},
	}
}

// med is the median of r's metric unit.
func med(r *result, unit string) float64 { return median(r.metrics[unit]) }

// printLean prints issue 33's table, with a before column when results of
// another revision came in, and reports whether the binary is within its
// limit: the one goal CI enforces, since sizes do not vary from run to
// run while times and peaks do.
func printLean(w io.Writer, results []*result) (binaryOK bool) {
	after, before := map[string]*result{}, map[string]*result{}
	for _, r := range results {
		if strings.HasPrefix(r.pkg, beforePrefix) {
			before[r.name] = r
		} else {
			after[r.name] = r
		}
	}
	fmt.Fprintln(w, "LEAN (issue 33): the release build, against baselines measured in the same run")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(before) > 0 {
		fmt.Fprintln(tw, "what\tbefore\tafter\tafter/before\tgoal\tmet")
	} else {
		fmt.Fprintln(tw, "what\tmeasured\tgoal\tmet")
	}
	binaryOK = true
	for _, row := range leanRows() {
		a := after[row.bench]
		if a == nil || len(a.metrics[row.unit]) == 0 {
			fmt.Fprintf(tw, "%s\tnot measured: Benchmark%s did not run\t\t\n", row.what, row.bench)
			if row.bench == "BinarySize" {
				binaryOK = false
			}
			continue
		}
		v := med(a, row.unit)
		met := ""
		if row.max > 0 {
			met = map[bool]string{true: "yes", false: "NO"}[v <= row.max]
		}
		if row.bench == "BinarySize" && v > row.max {
			binaryOK = false
		}
		if len(before) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", row.what, row.show(a), row.goal, met)
			continue
		}
		was, ratio := "not measured", ""
		if b := before[row.bench]; b != nil && len(b.metrics[row.unit]) > 0 {
			was = row.show(b)
			// Wall times are compared through their ratios to hello-world,
			// each measured beside its own runs.
			unit := row.unit
			if unit == "ms/run" {
				unit = "x-hello"
			}
			ratio = fmt.Sprintf("%.2fx", med(a, unit)/med(b, unit))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", row.what, was, row.show(a), ratio, row.goal, met)
	}
	tw.Flush()
	return binaryOK
}
