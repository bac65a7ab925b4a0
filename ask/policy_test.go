package ask

import (
	"slices"
	"testing"
	"time"
)

func opts(labels ...string) []Option {
	o := make([]Option, len(labels))
	for i, l := range labels {
		o[i] = Option{Label: l, Description: "about " + l}
	}
	return o
}

func TestRecommended(t *testing.T) {
	tests := []struct {
		name  string
		multi bool
		opts  []Option
		want  []string
	}{
		{"single, recommended first", false, opts("PostgreSQL (Recommended)", "MongoDB"), []string{"PostgreSQL"}},
		{"single, recommended not first", false, opts("npm", "pnpm (Recommended)", "yarn"), []string{"pnpm"}},
		{"single, several recommended takes the first", false, opts("a", "b (recommended)", "c (Recommended)"), []string{"b"}},
		{"single, none recommended takes the first", false, opts("JWT", "Session-based"), []string{"JWT"}},
		{"multi, several recommended takes all", true, opts("TypeScript (Recommended)", "Tailwind CSS", "ESLint (Recommended)"), []string{"TypeScript", "ESLint"}},
		{"multi, one recommended", true, opts("Google", "GitHub (Recommended)", "Apple"), []string{"GitHub"}},
		{"multi, none recommended takes the first", true, opts("Google", "GitHub", "Apple"), []string{"Google"}},
		{"never Other, even first", false, opts("Other", "Keep"), []string{"Keep"}},
		{"never Other, even recommended", true, opts("Other (Recommended)", "Keep"), []string{"Keep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Question{Question: "Which one?", Header: "Pick", Options: tt.opts, MultiSelect: tt.multi}
			before := time.Now().Add(-time.Millisecond)
			a := Recommended(q, "no person answered within 5m0s")
			if !slices.Equal(a.Selected, tt.want) {
				t.Errorf("selected %q, want %q", a.Selected, tt.want)
			}
			if a.Custom != "" || a.Skipped {
				t.Errorf("custom %q skipped %v; a policy gives no free text and never skips", a.Custom, a.Skipped)
			}
			if a.Source != SourcePolicy || a.Reason != "no person answered within 5m0s" {
				t.Errorf("source %q reason %q", a.Source, a.Reason)
			}
			if a.Question != q.Question || a.Header != q.Header || a.AnsweredAt.Before(before) {
				t.Errorf("answer for %q/%q at %v", a.Header, a.Question, a.AnsweredAt)
			}
		})
	}
}
