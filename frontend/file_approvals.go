package frontend

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/askuser/askuser/ask"
)

// An answers file may hold approval rules a person wrote, in Claude Code's
// rule syntax, beside its answers:
//
//	approvals:
//	  allow: [mcp__fs__read_file, "Bash(git status:*)"]
//	  deny: ["Bash(rm:*)"]
//
// The file only reads them; askuser checks their syntax and applies them
// (internal/approval). An approval question the rules leave open is never
// answered from the file's answers: it is left for the unanswered policy
// (suspend waits for a person; otherwise the call is not approved).

// FileRule is one approval rule as written, with where it was written.
type FileRule struct {
	Text string
	// From names the place for messages: "ci.yaml line 4".
	From string
	Line int
}

// FileApprovals are the approval rules of an answers file, by verdict.
type FileApprovals struct {
	Allow, Ask, Deny []FileRule
}

// Approvals returns the file's approval rules.
func (f *File) Approvals() FileApprovals { return f.approvals }

var approvalKeys = []string{"allow", "ask", "deny"}

// approvalsSection reads the approvals: mapping.
func (p *fileParser) approvalsSection(f *File, kv pair) {
	if _, null := kv.value.(*ast.NullNode); null {
		return
	}
	m, ok := kv.value.(*ast.MappingNode)
	if !ok {
		p.add(nodePos(kv.value), "approvals: must be a mapping of allow, ask and deny to lists of rules, got %s; e.g. approvals: {allow: [mcp__fs__read_file]}", describeNode(kv.value))
		return
	}
	for _, r := range p.pairs(m, exactKey) {
		var to *[]FileRule
		switch r.key {
		case "allow":
			to = &f.approvals.Allow
		case "ask":
			to = &f.approvals.Ask
		case "deny":
			to = &f.approvals.Deny
		default:
			hint := suggest(r.key, approvalKeys, nil)
			p.add(r.keyPos, "unknown key %q under approvals:; %s (keys: allow, ask, deny)", ask.Display(r.key), hint)
			continue
		}
		*to = append(*to, p.rules(r)...)
	}
}

// rules reads a rule or a list of rules.
func (p *fileParser) rules(kv pair) []FileRule {
	nodes := []ast.Node{kv.value}
	if seq, ok := kv.value.(*ast.SequenceNode); ok {
		nodes = seq.Values
	}
	var out []FileRule
	for _, n := range nodes {
		s, ok := text(n)
		if !ok || s == "" {
			p.add(nodePos(n), "approvals.%s: each rule is a string such as mcp__fs__write_file or \"Bash(git status:*)\", got %s", kv.key, describeNode(n))
			continue
		}
		pos := nodePos(n)
		out = append(out, FileRule{Text: s, Line: pos.line, From: fmt.Sprintf("%s line %d", p.path, pos.line)})
	}
	return out
}

// approvalAnswers answers an approval question set the rules left open
// when the file is not to suspend: no person wrote an approval for this
// call, so it is not approved. The answer names the file (Via) and the
// cause only; internal/approval words the one sentence the model reads,
// with how to allow such calls.
func (f *File) approvalAnswers(req ask.Request) []ask.Answer {
	out := make([]ask.Answer, len(req.Questions))
	for i, q := range req.Questions {
		out[i] = ask.Answer{Question: q.Question, Header: q.Header, Selected: []string{}, Skipped: true, Source: ask.SourceFile, Via: f.path,
			Reason: "no approval rule in the answers file allows this call"}
	}
	return out
}
