package client

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseConfigsReadsFilesAndInlineJSONInOrder(t *testing.T) {
	t.Setenv("MCP_TEST_TOKEN", "s3cret")
	file := writeConfig(t, "fs.json", `{
  "mcpServers": {
    "zeta": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${MCP_TEST_DIR:-/tmp}"], "env": {"A": "1"}},
    "alpha": {"type": "stdio", "command": "/bin/srv", "timeout": 15000, "alwaysLoad": true, "autoApprove": []}
  }
}`)
	inline := `{"mcpServers":{"web.api":{"type":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer ${MCP_TEST_TOKEN}"}}}}`
	cfg, err := ParseConfigs(t.Context(), []string{file, inline})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name)
	}
	if !reflect.DeepEqual(names, []string{"zeta", "alpha", "web.api"}) {
		t.Fatalf("servers %v; want the order written", names)
	}
	z, a, w := cfg.Servers[0], cfg.Servers[1], cfg.Servers[2]
	if z.Transport != TransportStdio || z.Args[2] != "/tmp" || z.Env["A"] != "1" || z.Source != file+":3:5" {
		t.Errorf("zeta: %+v", z)
	}
	if a.Transport != TransportStdio || a.Timeout != 15*time.Second || a.Source != file+":4:5" {
		t.Errorf("alpha: %+v", a)
	}
	if w.Transport != TransportHTTP || w.Headers["Authorization"] != "Bearer s3cret" || w.Source != "--mcp-config #2:1:16" {
		t.Errorf("web.api: %+v", w)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], `"autoApprove" is not used by askuser`) {
		t.Errorf("warnings %q; want one for autoApprove (alwaysLoad is known and ignored quietly)", cfg.Warnings)
	}
	if got := ToolName("web.api", "read file"); got != "mcp__web_api__read_file" {
		t.Errorf("ToolName = %q", got)
	}
}

func TestParseConfigsErrorsSayWhereAndHowToFix(t *testing.T) {
	t.Setenv("MCP_TEST_UNSET", "")
	os.Unsetenv("MCP_TEST_UNSET")
	bad := writeConfig(t, "bad.json", "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"x\",}\n  }\n}")
	cases := []struct {
		name  string
		specs []string
		want  []string
	}{
		{"syntax", []string{bad}, []string{bad + ":3:27: not valid JSON"}},
		{"missing file", []string{"/nonexistent/mcp.json"}, []string{"/nonexistent/mcp.json: no such file"}},
		{"empty spec", []string{" "}, []string{"--mcp-config #1: is empty"}},
		{"no mcpServers", []string{`{"servers":{}}`}, []string{`has no "mcpServers" object`}},
		{"not an object", []string{`{"mcpServers":{"a":[1]}}`}, []string{`server "a" is not an object`}},
		{"no command", []string{`{"mcpServers":{"a":{"args":["x"]}}}`}, []string{`server "a": "command" is required for a stdio server`}},
		{"no url", []string{`{"mcpServers":{"a":{"type":"http"}}}`}, []string{`server "a": "url" must be an http:// or https:// address`}},
		{"bad url", []string{`{"mcpServers":{"a":{"type":"http","url":"ftp://x"}}}`}, []string{`(got "ftp://x")`}},
		{"sse", []string{`{"mcpServers":{"a":{"type":"sse","url":"https://x/sse"}}}`}, []string{`type "sse" is not supported`, `try {"type": "http"`}},
		{"ws", []string{`{"mcpServers":{"a":{"type":"ws","url":"ws://x"}}}`}, []string{`type "ws" is not supported`}},
		{"both", []string{`{"mcpServers":{"a":{"command":"x","url":"https://x"}}}`}, []string{`"url" is for http servers`}},
		{"wrong types", []string{`{"mcpServers":{"a":{"command":"x","args":"y","env":{"A":1}}}}`}, []string{`"args" must be a list of strings`, `"env" must be an object of strings`}},
		{"short timeout", []string{`{"mcpServers":{"a":{"command":"x","timeout":5}}}`}, []string{`"timeout" is 5 ms; give at least 1000`}},
		{"unset env", []string{`{"mcpServers":{"a":{"command":"${MCP_TEST_UNSET}"}}}`}, []string{`uses ${MCP_TEST_UNSET}, which is not set`}},
		{"double underscore", []string{`{"mcpServers":{"fs__x":{"command":"x"}}}`}, []string{`holds "__"`, `rules such as mcp__fs match`}},
		{"trailing underscore", []string{`{"mcpServers":{"fs.":{"command":"x"}}}`}, []string{`ends with "_"`}},
		{"long name", []string{`{"mcpServers":{"` + strings.Repeat("s", 60) + `":{"command":"x"}}}`}, []string{`is too long`}},
		{"twice", []string{`{"mcpServers":{"fs":{"command":"x"}}}`, `{"mcpServers":{"fs":{"command":"y"}}}`},
			[]string{`--mcp-config #2:1:16: server "fs" is also defined at --mcp-config #1:1:16`}},
		{"same tool names", []string{`{"mcpServers":{"my.fs":{"command":"x"},"my_fs":{"command":"y"}}}`},
			[]string{`server "my_fs" and server "my.fs" (at --mcp-config #1:1:16) both give tools named mcp__my_fs__…`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseConfigs(t.Context(), c.specs)
			if !errors.Is(err, ErrBadConfig) {
				t.Fatalf("got %+v, %v; want ErrBadConfig", cfg, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestParseConfigsReportsEveryProblemAtOnce(t *testing.T) {
	_, err := ParseConfigs(t.Context(), []string{`{"mcpServers":{"a":{},"b":{"type":"http"}}}`, "/nonexistent"})
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Problems) != 3 {
		t.Fatalf("error %v; want three problems, one per broken server and the missing file", err)
	}
}
