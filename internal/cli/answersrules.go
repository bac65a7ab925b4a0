package cli

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
)

// An answers file may carry approval rules a person wrote, in Claude
// Code's rule syntax, beside its answers:
//
//	approvals:
//	  allow: [mcp__fs__read_file, "Bash(git status:*)"]
//	  deny: ["Bash(rm:*)"]
//	answers:
//	  Database: PostgreSQL
//
// frontend.File does not read that section (yet), so it is cut out here,
// its lines left blank so every line number the file's own errors give is
// still right, and read on its own.

// approvalsKey matches the section's first line: the key at column 0.
var approvalsKey = regexp.MustCompile(`^approvals\s*:`)

// loadAnswersWithApprovals reads an answers file and its approvals section.
func loadAnswersWithApprovals(path string) (*frontend.File, *approval.Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read answers file: %w", err)
	}
	rest, section := splitApprovals(data)
	f, err := frontend.ParseFile(path, rest)
	if err != nil {
		return nil, nil, err
	}
	rules, err := parseApprovals(path, section)
	if err != nil {
		return nil, nil, err
	}
	return f, rules, nil
}

// splitApprovals returns data with the approvals section's lines blanked,
// and the section alone with the other lines blanked (so a YAML error in
// it names the file's own line).
func splitApprovals(data []byte) (rest, section []byte) {
	lines := bytes.Split(data, []byte("\n"))
	in := false
	var r, s [][]byte
	for _, l := range lines {
		top := len(l) > 0 && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && strings.TrimSpace(string(l)) != ""
		switch {
		case approvalsKey.Match(l):
			in = true
		case top:
			in = false
		}
		if in {
			r, s = append(r, nil), append(s, l)
		} else {
			r, s = append(r, l), append(s, nil)
		}
	}
	return bytes.Join(r, []byte("\n")), bytes.Join(s, []byte("\n"))
}

// parseApprovals reads the section into a policy; nil when there is none.
func parseApprovals(path string, section []byte) (*approval.Policy, error) {
	if len(bytes.TrimSpace(section)) == 0 {
		return nil, nil
	}
	var doc struct {
		Approvals struct {
			Allow []string `yaml:"allow"`
			Ask   []string `yaml:"ask"`
			Deny  []string `yaml:"deny"`
		} `yaml:"approvals"`
	}
	if err := yaml.UnmarshalWithOptions(section, &doc, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("%s: approvals: %s; write approvals: {allow: [RULE, …], ask: […], deny: […]} with rules such as mcp__fs__read_file or Bash(git status:*)%w",
			path, strings.TrimSpace(yaml.FormatError(err, false, false)), errorMark{frontend.ErrBadAnswers})
	}
	p := &approval.Policy{}
	for _, list := range []struct {
		key   string
		rules []string
		into  *[]approval.Rule
	}{{"allow", doc.Approvals.Allow, &p.Allow}, {"ask", doc.Approvals.Ask, &p.Ask}, {"deny", doc.Approvals.Deny, &p.Deny}} {
		for _, s := range list.rules {
			r, err := approval.ParseRule(s, fmt.Sprintf("%s approvals: %s", path, list.key))
			if err != nil {
				return nil, fmt.Errorf("%s: approvals: %s: %w%w", path, list.key, err, errorMark{frontend.ErrBadAnswers})
			}
			*list.into = append(*list.into, r)
		}
	}
	return p, nil
}
