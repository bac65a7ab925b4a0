// Command benchsummary reads `go test -bench` output (several -count runs,
// several packages) on stdin and prints, for a person, the median of every
// metric of every benchmark and the ratios to the baselines measured in the
// same run, then the goals of issue 12 (a lean binary) as measured ratios
// and the table of issue 33 (a lean process, lean.go). scripts/bench.sh
// pipes its results through it; it needs nothing but Go, where benchstat
// may not be installed.
//
// With -lean it prints issue 33's table alone and exits 1 when the
// release binary passes its limit (scripts/bench.sh -l, .ci/run).
//
// A ratio is computed from medians, which a noisy machine disturbs less
// than means. The pairs are named in baselines below; the process
// benchmarks (bench_test.go) measure their own ratio to hello-world run by
// run and report it as x-hello.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// baselines pairs a benchmark (by name prefix) with the benchmark that is
// its floor; the rest of the name (a sub-benchmark) must match.
var baselines = []struct{ bench, base string }{
	{"StdioRoundTrip", "PipeEchoBaseline"},
	{"ParseValidateFormat", "JSONUnmarshalBaseline"},
	{"ProcessInitOnly", "ProcessHello"},
	{"ProcessFloor", "ProcessHello"},
	{"ProcessVersion", "ProcessHello"},
	{"ProcessAskFile", "ProcessHello"},
	{"ProcessHook", "ProcessHello"},
	{"ProcessRunPrint", "ProcessHello"},
	{"ProcessClaudeCodePrint", "ProcessHello"},
	{"SessionLoadResume1000", "SessionLoadDecodeBaseline"},
}

// result is every value of every metric of one benchmark, in input order.
type result struct {
	pkg     string
	name    string
	units   []string
	metrics map[string][]float64
}

func main() {
	lean := flag.Bool("lean", false, "print only issue 33's table, and exit 1 when the release binary passes 30 MB")
	flag.Parse()
	results, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchsummary:", err)
		os.Exit(1)
	}
	if len(results) == 0 {
		fmt.Fprintln(os.Stderr, "benchsummary: no benchmark results on standard input")
		os.Exit(1)
	}
	if *lean {
		if !printLean(os.Stdout, results) {
			fmt.Fprintf(os.Stderr, "benchsummary: the release binary is not within %d bytes (issue 33)\n", leanBinaryBytes)
			os.Exit(1)
		}
		return
	}
	printMedians(os.Stdout, results)
	fmt.Println()
	printRatios(os.Stdout, results)
	fmt.Println()
	printGoals(os.Stdout, results)
	fmt.Println()
	printLean(os.Stdout, results)
}

// parse reads benchmark lines, keyed by package and name without the
// GOMAXPROCS suffix.
func parse(r io.Reader) ([]*result, error) {
	var out []*result
	byKey := map[string]*result{}
	pkg := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		res := byKey[pkg+" "+name]
		if res == nil {
			res = &result{pkg: pkg, name: name, metrics: map[string][]float64{}}
			byKey[pkg+" "+name] = res
			out = append(out, res)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", line, err)
			}
			unit := f[i+1]
			if _, seen := res.metrics[unit]; !seen {
				res.units = append(res.units, unit)
			}
			res.metrics[unit] = append(res.metrics[unit], v)
		}
	}
	return out, sc.Err()
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// spread is (max-min)/median in percent: how much the runs disagreed.
func spread(v []float64) float64 {
	m := median(v)
	if m == 0 {
		return 0
	}
	return (slices.Max(v) - slices.Min(v)) / m * 100
}

func printMedians(w io.Writer, results []*result) {
	fmt.Fprintln(w, "MEDIANS (runs; ±: spread of ns/op, (max-min)/median)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "package\tbenchmark\truns\tns/op\t±\tother metrics")
	for _, r := range results {
		ns := r.metrics["ns/op"]
		var other []string
		for _, u := range r.units {
			if u != "ns/op" {
				other = append(other, format(median(r.metrics[u]))+" "+u)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%.0f%%\t%s\n", shortPkg(r.pkg), r.name, len(ns), format(median(ns)), spread(ns), strings.Join(other, "  "))
	}
	tw.Flush()
}

func printRatios(w io.Writer, results []*result) {
	fmt.Fprintln(w, "RATIOS TO BASELINES MEASURED IN THE SAME RUN (medians)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tbaseline\ttime ratio\tdetail")
	for _, r := range results {
		base, ok := baselineOf(r, results)
		if !ok {
			continue
		}
		ratio := median(r.metrics["ns/op"]) / median(base.metrics["ns/op"])
		detail := ""
		if x, ok := r.metrics["x-hello"]; ok {
			// Measured run by run against hello-world: steadier than ns/op.
			ratio = median(x)
			detail = fmt.Sprintf("%s ms vs %s ms; peak RSS %s KiB vs %s KiB",
				format(median(r.metrics["ms/run"])), format(median(r.metrics["hello-ms/run"])),
				format(median(r.metrics["maxrss-KiB"])), format(median(r.metrics["hello-KiB"])))
		} else if rt, ok := r.metrics["roundtrips/s"]; ok {
			detail = fmt.Sprintf("%s vs %s round trips/s", format(median(rt)), format(median(base.metrics["roundtrips/s"])))
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2fx\t%s\n", r.name, base.name, ratio, detail)
	}
	tw.Flush()
	printSyncCost(w, results)
}

// baselineOf finds r's baseline in the same package.
func baselineOf(r *result, results []*result) (*result, bool) {
	for _, b := range baselines {
		rest, ok := strings.CutPrefix(r.name, b.bench)
		if !ok {
			continue
		}
		for _, c := range results {
			if c.pkg == r.pkg && (c.name == b.base+rest || c.name == b.base) {
				return c, true
			}
		}
	}
	return nil, false
}

// printSyncCost compares a run with its journal on disk and on tmpfs: the
// difference is what syncing each record costs.
func printSyncCost(w io.Writer, results []*result) {
	var disk, tmpfs *result
	for _, r := range results {
		switch r.name {
		case "ProcessRunPrint/state=disk":
			disk = r
		case "ProcessRunPrint/state=tmpfs":
			tmpfs = r
		}
	}
	if disk == nil || tmpfs == nil {
		return
	}
	d, t := median(disk.metrics["ms/run"]), median(tmpfs.metrics["ms/run"])
	fmt.Fprintf(w, "\njournal syncs: a run takes %s ms with its state on disk, %s ms on tmpfs: %s ms (%.0f%%) is durability\n",
		format(d), format(t), format(d-t), (d-t)/d*100)
}

func shortPkg(p string) string {
	if rest, ok := strings.CutPrefix(p, beforePrefix); ok {
		return beforePrefix + shortPkg(rest)
	}
	p = strings.TrimPrefix(p, "github.com/askuser/askuser")
	if p == "" {
		return "."
	}
	return strings.TrimPrefix(p, "/")
}

// format prints v with about four significant digits.
func format(v float64) string {
	switch {
	case v >= 1000 || v <= -1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10 || v <= -10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
}
