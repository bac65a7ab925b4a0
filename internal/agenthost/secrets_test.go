package agenthost

import (
	"strings"
	"testing"
)

func TestCheckSecrets(t *testing.T) {
	for _, args := range [][]string{
		{"-p", "task", "--mcp-config", `{"mcpServers":{"gh":{"command":"gh-mcp","env":{"GITHUB_TOKEN":"ghp_abc123"}}}}`},
		{"exec", "-c", `mcp_servers.gh.env={GITHUB_TOKEN="ghp_abc123"}`, "task"},
		{"exec", "-c", `model_providers.x.http_headers={Authorization="Bearer sk-abcdefgh123"}`, "task"},
		{"-p", "task", "--settings", `{"env":{"ANTHROPIC_API_KEY":"sk-ant-123"}}`},
		{"run", "--password=hunter22", "task"},
	} {
		err := CheckSecrets(args, "askuser run --agent")
		if err == nil || !strings.Contains(err.Error(), "environment") {
			t.Errorf("%q: %v; want a refusal saying where to give it", args, err)
		}
		if err != nil && (strings.Contains(err.Error(), "ghp_abc123") || strings.Contains(err.Error(), "sk-ant-123") || strings.Contains(err.Error(), "hunter22")) {
			t.Errorf("the refusal shows the secret: %v", err)
		}
	}
	for _, args := range [][]string{
		{"-p", "Add a token bucket to the API", "--allowedTools", "Bash(git status:*)"},
		{"exec", "-c", `model_providers.fake={name="fake", base_url="http://127.0.0.1:1", env_key="CODEX_FAKE_KEY"}`, "task"},
		{"exec", "-c", `mcp_servers.gh.env={GITHUB_TOKEN="${GITHUB_TOKEN}"}`, "task"},
		{"--remote-auth-token-env=MY_TOKEN", "exec", "task"},
		{"-p", "task", "--mcp-config", `{"mcpServers":{"gh":{"command":"gh-mcp","env":{"GITHUB_TOKEN":"$GITHUB_TOKEN"}}}}`},
	} {
		if err := CheckSecrets(args, "askuser run --agent"); err != nil {
			t.Errorf("%q: %v; nothing secret is written out", args, err)
		}
	}
}
