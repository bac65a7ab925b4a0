package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/pgtest"
	"github.com/askuser/askuser/internal/store/postgres"
)

// pgServer is the benchmark's own PostgreSQL and its database.
type pgServer struct {
	srv *pgtest.Server
	url string
	// bouncer, if started, pools in front of srv (-pooler).
	bouncer *pgtest.PgBouncer
}

func startServer(settings ...string) (*pgServer, error) {
	srv, err := pgtest.Start(settings...)
	if err != nil {
		return nil, err
	}
	db, err := srv.CreateDB()
	if err != nil {
		srv.Close()
		return nil, err
	}
	return &pgServer{srv: srv, url: srv.URL(db)}, nil
}

func (p *pgServer) close() {
	if p.bouncer != nil {
		p.bouncer.Close()
	}
	p.srv.Close()
}

// seed writes n sessions waiting on a question, as runs that stopped to
// wait leave them, through the session package: files in state, or the
// team store at url.
func seed(state, url string, n int) error {
	st := &session.Store{Dir: state}
	if url != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		b, err := postgres.New(ctx, url)
		if err != nil {
			return err
		}
		st.Backend = b
	}
	defer st.Close()
	input := json.RawMessage(`{"questions":[{"question":"Which region?","header":"Region","multiSelect":false,` +
		`"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}`)
	req := ask.Request{ID: "toolu_region", Questions: []ask.Question{{Question: "Which region?", Header: "Region",
		Options: []ask.Option{{Label: "eu-north", Description: "Stockholm"}, {Label: "us-east", Description: "Virginia"}}}}}
	for i := range n {
		prompt := fmt.Sprintf("seeded task %d", i)
		s, err := st.Create(session.Meta{Provider: "script", Model: "scripted", FirstPrompt: prompt, Machine: "bench",
			Cwd: fmt.Sprintf("/src/app%d", i%7)})
		if err != nil {
			return err
		}
		steps := []error{
			s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: prompt}}}),
			s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
				{Type: agentloop.BlockText, Text: "Where should it run?"},
				{Type: agentloop.BlockToolUse, ID: req.ID, Name: ask.ToolName, Input: input}}}),
			s.Asked(req, req.ID, time.Now()),
			s.SetStatus(string(agentloop.StatusWaiting), "waiting on a question", 1, agentloop.Usage{}),
			s.Close(),
		}
		for _, err := range steps {
			if err != nil {
				return err
			}
		}
	}
	return nil
}
