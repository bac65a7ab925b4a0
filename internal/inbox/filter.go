package inbox

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// The inbox's list pages, and filters by machine, directory and age, so
// a team's thousand waiting sessions stay usable on a phone: a page holds
// perPage sessions, and says how many match, and on which machines. The
// filters are the page's query string (a GET form, so no token is
// needed beyond the page's own): ?machine=build-7&dir=src/app&age=>1h&page=2.

// Bounds of a list page.
const (
	defaultPerPage = 25
	maxPerPage     = 200
	// maxFilterChars bounds what of a filter is kept.
	maxFilterChars = 200
)

// listFilter is what a list page shows.
type listFilter struct {
	// Machine is a machine's name, whole; Dir a part of a directory.
	Machine, Dir string
	// Age is "" or "<" / ">" and a duration: waiting (for the others,
	// updated) less or more than that long ago.
	Age     string
	older   bool
	age     time.Duration
	Page    int
	PerPage int
}

// ages are the age filters the page offers.
var ages = []struct{ Value, Label string }{
	{"", "any age"}, {"<1h", "under an hour"}, {">1h", "over an hour"}, {">1d", "over a day"}, {">7d", "over a week"},
}

// parseFilter reads a list page's query. A value that is not one is
// dropped, never refused: the page shows what it can.
func parseFilter(q url.Values) listFilter {
	f := listFilter{Machine: clip(q.Get("machine")), Dir: clip(q.Get("dir")), Page: 1, PerPage: defaultPerPage}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 1 {
		f.Page = n
	}
	if n, err := strconv.Atoi(q.Get("per")); err == nil && n >= 1 {
		f.PerPage = min(n, maxPerPage)
	}
	if a := q.Get("age"); len(a) > 1 && (a[0] == '<' || a[0] == '>') {
		if d, err := parseAge(a[1:]); err == nil && d > 0 {
			f.Age, f.older, f.age = a, a[0] == '>', d
		}
	}
	return f
}

func clip(s string) string {
	if r := []rune(strings.TrimSpace(s)); len(r) > maxFilterChars {
		return string(r[:maxFilterChars])
	}
	return strings.TrimSpace(s)
}

// parseAge reads a duration, with d for days and w for weeks.
func parseAge(s string) (time.Duration, error) {
	for unit, d := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, unit); ok {
			v, err := strconv.Atoi(n)
			return time.Duration(v) * d, err
		}
	}
	return time.ParseDuration(s)
}

// match reports whether a session, waiting since since, is one the
// filter shows.
func (f listFilter) match(sum session.Summary, since, now time.Time) bool {
	if f.Machine != "" && sum.Machine != f.Machine {
		return false
	}
	if f.Dir != "" && !strings.Contains(sum.Cwd, f.Dir) {
		return false
	}
	if f.age > 0 && (now.Sub(since) > f.age) != f.older {
		return false
	}
	return true
}

// view is the filter as a page shows it.
func (f listFilter) view() page.Filter {
	return page.Filter{Machine: f.Machine, Dir: f.Dir, Age: f.Age, Page: f.Page, PerPage: f.PerPage}
}

// active reports whether any filter is set.
func (f listFilter) active() bool { return f.Machine != "" || f.Dir != "" || f.Age != "" }

// query is the filter as a query string, at page n.
func (f listFilter) query(n int) string {
	q := url.Values{}
	for k, v := range map[string]string{"machine": f.Machine, "dir": f.Dir, "age": f.Age} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if n > 1 {
		q.Set("page", strconv.Itoa(n))
	}
	if f.PerPage != defaultPerPage {
		q.Set("per", strconv.Itoa(f.PerPage))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// paginate cuts rows to f's page and says where that is.
func paginate(rows []sessionRow, f listFilter) ([]sessionRow, page.Pager) {
	p := page.Pager{Total: len(rows)}
	pages := max(1, (len(rows)+f.PerPage-1)/f.PerPage)
	at := min(f.Page, pages)
	from, to := (at-1)*f.PerPage, min(at*f.PerPage, len(rows))
	if from < to {
		p.First, p.Last = from+1, to
	}
	if at > 1 {
		p.Prev = "/" + f.query(at-1)
	}
	if at < pages {
		p.Next = "/" + f.query(at+1)
	}
	return rows[from:to], p
}

// countMachines counts the waiting sessions of each machine, the most
// first, and marks the one f selects (kept even when it has none).
func countMachines(waiting []sessionRow, f listFilter) []page.MachineCount {
	counts := map[string]int{}
	for _, r := range waiting {
		if r.Machine != "" {
			counts[r.Machine]++
		}
	}
	if f.Machine != "" {
		counts[f.Machine] += 0
	}
	out := make([]page.MachineCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, page.MachineCount{Name: name, Count: n, Selected: name == f.Machine})
	}
	slices.SortFunc(out, func(a, b page.MachineCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
