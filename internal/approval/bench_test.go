package approval

import "testing"

// BenchmarkDecide reads a typical Bash call against a rule set, beside the
// baseline of an MCP call that needs no reading (compare the two as a
// ratio, measured in the same run).
func BenchmarkDecide(b *testing.B) {
	rules, err := ParseRules("mcp__fs__read_file Bash(git status:*) Bash(go test:*) Write(src/**)", "bench")
	if err != nil {
		b.Fatal(err)
	}
	deny, _ := ParseRules("Bash(rm:*) Read(.env)", "bench")
	p := Policy{Allow: rules, Deny: deny}
	for name, req := range map[string]Request{
		"baseline-mcp": call("mcp__fs__read_file", `{"path":"a.txt"}`),
		"bash":         call("Bash", `{"command":"git status --short && go test ./... 2>&1 | head -50"}`),
		"path":         {Tool: "Write", Input: []byte(`{"file_path":"src/pkg/a.go","content":"x"}`), Dir: "/home/me/proj"},
		// A line with the readings added for code bash builds from strings
		// (arithmetic, a pipe into a shell, a command askuser does not
		// know), and a search over the session's folder.
		"bash-strings": call("Bash", `{"command":"n=3; for ((i=0; i<n; i++)); do echo $i; done | tee out.txt; npx eslint src --fix"}`),
		"search":       {Tool: "Grep", Input: []byte(`{"pattern":"TODO","glob":"*.go"}`), Dir: "/home/me/proj"},
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				p.Decide(req, nil)
			}
		})
	}
}
