package runflow

import (
	"context"
	"fmt"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/build"
	"github.com/askuser/askuser/internal/cmdutil"
	mcpclient "github.com/askuser/askuser/internal/mcp/client"
)

// mcpServer is one MCP server as the init line reports it (Claude Code's
// shape).
type mcpServer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// runTools are the tools of one run: the built-in ones, and those of the
// MCP servers it started, each gated by the approval policy.
type runTools struct {
	reg     *agentloop.Registry
	servers []mcpServer
	mode    approval.Mode
	client  *mcpclient.Client
}

// close stops the MCP servers.
func (t *runTools) close() {
	if t != nil && t.client != nil {
		t.client.Close()
	}
}

// buildTools starts the run's MCP servers (in parallel; their stderr goes
// to logs beside the session) and builds the registry. A server that fails
// to start is reported on stderr with the tail of its stderr, and the run
// goes on without its tools, unless --strict-mcp-config. fileRules are the
// approval rules of the answers file.
func (r *runner) buildTools(ctx context.Context, fileRules *approval.Policy) (*runTools, error) {
	policy, err := r.tools.policy(fileRules)
	if err != nil {
		return nil, err
	}
	reg, err := agentloop.NewRegistry(agentloop.AskTool{}, agentloop.TaskTool{Depth: r.o.subagentDepth, SubProvider: r.sub})
	if err != nil {
		return nil, err
	}
	t := &runTools{reg: reg, servers: []mcpServer{}, mode: policy.Mode}
	if len(r.tools.mcpConfig) == 0 {
		return t, nil
	}
	cfg, err := mcpclient.ParseConfigs(ctx, r.tools.mcpConfig)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	if err != nil {
		return nil, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("--mcp-config: %w", err))
	}
	if r.o.frontendSpec.Verbose {
		for _, w := range cfg.Warnings {
			fmt.Fprintf(r.f.IOStreams.ErrOut, "askuser: --mcp-config: %s\n", w)
		}
	}
	logs, err := sessionSideDir(r.store, r.sess.Meta.ID)
	if err != nil {
		return nil, err
	}
	client, failures := mcpclient.Start(ctx, cfg, mcpclient.Options{LogDir: logs, ClientName: "askuser", ClientVersion: build.Current(),
		OnExit: func(e *mcpclient.ServerError) {
			fmt.Fprintf(r.f.IOStreams.ErrOut, "askuser: %v\n", e)
		}})
	t.client = client
	failed := map[string]bool{}
	for _, f := range failures {
		failed[f.Server] = true
		fmt.Fprintf(r.f.IOStreams.ErrOut, "askuser: %v\n", f) // names the server, with its stderr's tail
	}
	if len(failures) > 0 && r.tools.strictMCP {
		client.Close()
		return nil, fmt.Errorf("--strict-mcp-config: %d MCP server(s) did not start (%s); fix them or drop --strict-mcp-config to go on without their tools",
			len(failures), strings.Join(serverNames(failures), ", "))
	}
	for _, s := range cfg.Servers {
		status := "connected"
		if failed[s.Name] {
			status = "failed"
		}
		t.servers = append(t.servers, mcpServer{Name: s.Name, Status: status})
	}
	for _, tool := range client.Tools() {
		if err := reg.Add(agentloop.Gate(tool, policy)); err != nil {
			fmt.Fprintf(r.f.IOStreams.ErrOut, "askuser: %v; left out\n", err)
		}
	}
	return t, nil
}

func serverNames(fs []*mcpclient.ServerError) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Server)
	}
	return out
}
