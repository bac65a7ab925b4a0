package chooser

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/cmdutil"
)

// LoadAnswersWithApprovals reads an answers file and the approval rules it
// holds (its approvals: section, in Claude Code's rule syntax). A rule that
// does not parse is an error naming the file and its line (exit 3).
func LoadAnswersWithApprovals(ctx context.Context, path string) (*frontend.File, *approval.Policy, error) {
	f, err := frontend.LoadFileContext(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	rules, err := FileRules(f)
	return f, rules, err
}

// FileRules turns an answers file's approval rules into a policy's rules;
// nil when it has none.
func FileRules(f *frontend.File) (*approval.Policy, error) {
	a := f.Approvals()
	if len(a.Allow)+len(a.Ask)+len(a.Deny) == 0 {
		return nil, nil
	}
	p := &approval.Policy{}
	// A path rule's /path is relative to the file's folder, as Claude
	// Code's is to its settings file's.
	dir, err := filepath.Abs(filepath.Dir(f.Path()))
	if err != nil {
		dir = ""
	}
	for _, list := range []struct {
		key   string
		rules []frontend.FileRule
		into  *[]approval.Rule
	}{{"allow", a.Allow, &p.Allow}, {"ask", a.Ask, &p.Ask}, {"deny", a.Deny, &p.Deny}} {
		for _, fr := range list.rules {
			r, err := approval.ParseRule(fr.Text, fr.From)
			if err != nil {
				return nil, cmdutil.WithCode(cmdutil.ExitInvalid, fmt.Errorf("%s:%d: approvals: %s: %w", f.Path(), fr.Line, list.key, err))
			}
			r.Dir = dir
			*list.into = append(*list.into, r)
		}
	}
	return p, nil
}
