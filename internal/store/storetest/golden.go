package storetest

import (
	"encoding/json"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// GoldenID is the id of the golden session.
const GoldenID = "3f2a9c1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f"

// GoldenPath is the journal the files store of askuser's main branch
// wrote for GoldenMeta and GoldenSteps (before the store seam), relative
// to this package: every store must write those very bytes, and read
// them back.
const GoldenPath = "testdata/journal-main.jsonl"

// GoldenMeta is the golden session's header.
func GoldenMeta() session.Meta {
	return session.Meta{ID: GoldenID, Created: T0, Provider: "anthropic", Model: "claude-test", Cwd: "/src/app",
		FirstPrompt: "pick a database", MCPConfig: []string{"/src/app/mcp.json"}, AllowedTools: []string{"Bash(ls:*)"}}
}

const goldenInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false},` +
	`{"question":"Which cache?","header":"Cache","options":[{"label":"Redis","description":"A server"},{"label":"None","description":"Nothing"}],"multiSelect":true}]}`

var goldenRequest = ask.Request{ID: "toolu_1", Questions: []ask.Question{
	{Question: "Which database should we use?", Header: "Database", Options: []ask.Option{
		{Label: "PostgreSQL (Recommended)", Description: "Relational"}, {Label: "SQLite", Description: "Embedded"}}},
	{Question: "Which cache?", Header: "Cache", MultiSelect: true, Options: []ask.Option{
		{Label: "Redis", Description: "A server"}, {Label: "None", Description: "Nothing"}}},
}}

// GoldenSteps journal every kind of record: messages, a set asked,
// partly answered, replied and answered, a step and a grant (a session
// value), a sub-agent's records, a status, a second set, and a cancel.
func GoldenSteps(s *session.Session) error {
	at := func(n int) time.Time { return T0.Add(time.Duration(n) * time.Second) }
	db := ask.Answer{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourcePerson}
	cache := ask.Answer{Question: "Which cache?", Header: "Cache", Selected: []string{"Redis"}, Custom: "a note", Source: ask.SourcePerson, AnsweredAt: T0.Add(5 * time.Second)}
	result := agentloop.Block{Type: agentloop.BlockToolResult, ToolUseID: "toolu_1", Content: ask.FormatResult([]ask.Answer{db, cache})}
	child := s.Child("toolu_9")
	steps := []func() error{
		func() error { return s.Message(text(agentloop.RoleUser, "pick a database")) },
		func() error {
			return s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
				{Type: agentloop.BlockText, Text: "Two questions first."},
				{Type: agentloop.BlockToolUse, ID: "toolu_1", Name: ask.ToolName, Input: json.RawMessage(goldenInput)}}})
		},
		func() error { return s.Asked(goldenRequest, "toolu_1", at(3)) },
		func() error { return s.Partial("toolu_1", []ask.Answer{db}, []int{0}) },
		func() error { return s.Replied("toolu_1", []ask.Answer{db, cache}) },
		func() error { return s.Step("toolu_1", "started", json.RawMessage(`true`)) },
		func() error {
			return s.Step("", "approval.grant:Bash", json.RawMessage(`{"allow":true,"scope":"session","by":"person"}`))
		},
		func() error { return s.Answered("toolu_1", result, []ask.Answer{db, cache}) },
		func() error {
			return s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{result}})
		},
		func() error { return child.Message(text(agentloop.RoleUser, "look around")) },
		func() error { return child.Message(text(agentloop.RoleAssistant, "Found it.")) },
		func() error { return s.Message(text(agentloop.RoleAssistant, "Using SQLite, with Redis.")) },
		func() error {
			return s.SetStatus(string(agentloop.StatusSuccess), "", 2, agentloop.Usage{InputTokens: 10, OutputTokens: 2})
		},
		func() error { return s.Message(text(agentloop.RoleUser, "and a queue?")) },
		func() error {
			return s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
				{Type: agentloop.BlockToolUse, ID: "toolu_2", Name: ask.ToolName, Input: json.RawMessage(goldenInput)}}})
		},
		func() error {
			req := goldenRequest
			req.ID = "toolu_2"
			return s.Asked(req, "toolu_2", at(20))
		},
		func() error {
			_, err := s.Cancel("not now")
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func text(role, s string) agentloop.Message {
	return agentloop.Message{Role: role, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: s}}}
}
