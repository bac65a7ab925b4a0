package page

import (
	"strings"
	"testing"
)

// The pager shows only when it has something to say: more than one page,
// or how many sessions a filter matches. One unfiltered page shows none
// (a lone "1" under "Waiting for you" said nothing).
func TestPagerOnlyWhenItSaysSomething(t *testing.T) {
	row := SessionRow{Href: "/s/a", Prompt: "Which database?"}
	for _, tc := range []struct {
		name string
		d    HomeData
		want string // "" when no pager is wanted
	}{
		{"one page", HomeData{Waiting: []SessionRow{row}, WaitingTotal: 1, Pager: Pager{First: 1, Last: 1, Total: 1}, Filter: Filter{PerPage: 50}}, ""},
		{"one page, filtered", HomeData{Waiting: []SessionRow{row}, WaitingTotal: 3, Filtered: true, Pager: Pager{First: 1, Last: 1, Total: 1}, Filter: Filter{PerPage: 50}}, "1 that match"},
		{"two pages", HomeData{Waiting: []SessionRow{row}, WaitingTotal: 60, Pager: Pager{First: 1, Last: 50, Total: 60, Next: "/?page=2"}, Filter: Filter{PerPage: 50}}, "Showing 1–50 of 60"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := Render("inbox", tc.d)
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Index(body, `class="hint pager"`)
			switch {
			case tc.want == "" && i >= 0:
				t.Errorf("a pager on one unfiltered page:\n%s", body)
			case tc.want != "" && (i < 0 || !strings.Contains(body[i:], tc.want)):
				t.Errorf("want a pager saying %q:\n%s", tc.want, body)
			}
		})
	}
}
