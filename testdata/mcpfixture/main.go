// Command mcpfixture is an MCP server for askuser's end-to-end tests with
// the real Claude Code: one tool, deploy, which asks its client to fill in
// a form (elicitation/create, the form of the probe in CONTRACTS.md) and
// returns exactly what came back, so a test can see the values the
// server received. It speaks JSON-RPC over stdio with the standard library
// only: a test fixture, not a second MCP implementation to maintain.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

// form is what deploy asks for.
const form = `{"message":"Pick a deployment target","requestedSchema":{"type":"object","properties":{
"env":{"type":"string","title":"Environment","enum":["staging","production"]},
"regions":{"type":"array","title":"Regions","items":{"type":"string","enum":["eu","us","ap"]}},
"confirm":{"type":"boolean","title":"Confirm"},
"replicas":{"type":"number","title":"Replicas"},
"note":{"type":"string","title":"Note"}},"required":["env"]}}`

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	send := func(v map[string]any) { v["jsonrpc"] = "2.0"; _ = out.Encode(v) }
	var waiting json.RawMessage // the id of the tools/call waiting on the form
	for in.Scan() {
		var m message
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			var p struct {
				Version string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			send(map[string]any{"id": m.ID, "result": map[string]any{"protocolVersion": p.Version,
				"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "mcpfixture", "version": "1"}}})
		case m.Method == "tools/list":
			send(map[string]any{"id": m.ID, "result": map[string]any{"tools": []any{map[string]any{
				"name": "deploy", "description": "Deploy, asking the user where to", "inputSchema": map[string]any{"type": "object"}}}}})
		case m.Method == "tools/call":
			waiting = m.ID
			send(map[string]any{"id": "fixture-elicit", "method": "elicitation/create", "params": json.RawMessage(form)})
		case m.Method == "ping":
			send(map[string]any{"id": m.ID, "result": map[string]any{}})
		case m.Method == "" && string(m.ID) == `"fixture-elicit"` && waiting != nil:
			got := m.Result
			if got == nil {
				got = m.Error
			}
			send(map[string]any{"id": waiting, "result": map[string]any{"content": []any{map[string]any{
				"type": "text", "text": "deploy received: " + string(got)}}}})
			waiting = nil
		case m.Method != "" && m.ID != nil:
			send(map[string]any{"id": m.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
		}
	}
}
