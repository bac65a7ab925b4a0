package agenthost

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The tests run the real hosts with a stand-in for askuser: this test
// binary, run by the host as `<binary> hook --agenthost-standin DIR` (a
// Claude Code PreToolUse hook) or `<binary> mcp --agenthost-standin DIR
// [TOOL]` (an MCP server), which TestMain recognises before any test runs.
// The hook decides as askuser's will, through the package's own ledger:
// an answer waiting in DIR/answers/<tool_use_id>.json is printed (and the
// call released), else the call is deferred, or denied when it cannot wait.
// The MCP server answers every call "not answered yet", as askuser mcp
// will when nobody answers in time. Both log what they saw to DIR.

const standinFlag = "--agenthost-standin"

func TestMain(m *testing.M) {
	if len(os.Args) > 3 && os.Args[2] == standinFlag {
		switch os.Args[1] {
		case "hook":
			os.Exit(standinHook(os.Args[3]))
		case "mcp":
			tool := "AskUserQuestion"
			if len(os.Args) > 4 {
				tool = os.Args[4]
			}
			os.Exit(standinMCP(os.Args[3], tool))
		}
	}
	os.Exit(m.Run())
}

// standinWiring wires the stand-in in, logging to dir.
func standinWiring(t *testing.T, dir string, args ...string) Wiring {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Wiring{Askuser: exe, Args: append([]string{standinFlag, dir}, args...), Matcher: "*", Scratch: filepath.Join(dir, "scratch")}
}

// hookLog is one line of the stand-in hook's log.
type hookLog struct {
	Call    HookCall `json:"call"`
	Verdict string   `json:"verdict"`
}

func standinHook(dir string) int {
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		return 2
	}
	call, err := ParseHookCall(input)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ledger := Ledger{Dir: filepath.Join(dir, "ledger")}
	decision, verdict := standinDecide(dir, ledger, call)
	appendJSON(filepath.Join(dir, "hook.jsonl"), hookLog{Call: call, Verdict: verdict})
	fmt.Println(decision)
	return 0
}

func standinDecide(dir string, ledger Ledger, call HookCall) (decision, verdict string) {
	deny := func(msg string) string {
		b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": msg}})
		return string(b)
	}
	if answer, err := os.ReadFile(filepath.Join(dir, "answers", call.ToolUseID+".json")); err == nil {
		if err := ledger.Release(call); err != nil {
			return deny(err.Error()), "error"
		}
		return string(answer), "answered"
	}
	if call.ToolName != "AskUserQuestion" && call.ToolName != "Bash" && call.ToolName != "mcp__deploy__deploy" {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, "allowed"
	}
	// askuser asks first and claims at its deadline, by when Claude Code
	// has written the whole message to the transcript (it writes as the
	// message streams): stand for the asking.
	time.Sleep(500 * time.Millisecond)
	v, waiting, err := ledger.Claim(call)
	switch {
	case err != nil:
		return deny(err.Error()), "error"
	case v == Defer || v == DeferAgain:
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"waiting for a person"}}`, "defer"
	case v == Busy:
		return deny(BusyMessage(call, *waiting)), "busy"
	case v == SubagentCall:
		return deny(SubagentMessage(call.ToolName, "(the subagent's call)")), "subagent"
	}
	return deny(FollowedMessage(call.ToolName)), "followed"
}

// standinNoAnswer is what the stand-in MCP server answers every call.
const standinNoAnswer = "Nobody has answered yet. The person has been asked; this session will continue with their answer when it comes. This is not an answer: end your turn now."

// standinMCP serves one tool over stdio until its input ends. A file
// named "gone" in dir makes it exit at once, as a server that cannot start.
func standinMCP(dir, tool string) int {
	if _, err := os.Stat(filepath.Join(dir, "gone")); err == nil {
		return 1
	}
	out := json.NewEncoder(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil {
			continue
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
		switch msg.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(msg.Params, &p)
			reply["result"] = map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "standin", "version": "1"}}
		case "tools/list":
			reply["result"] = map[string]any{"tools": []any{map[string]any{"name": tool, "description": "Ask the user.",
				"inputSchema": json.RawMessage(standinSchema), "annotations": map[string]any{"readOnlyHint": true}}}}
		case "tools/call":
			appendJSON(filepath.Join(dir, "calls.jsonl"), json.RawMessage(msg.Params))
			text := standinNoAnswer
			if tool != "AskUserQuestion" {
				text = tool + " ran"
			}
			reply["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
		case "ping":
			reply["result"] = map[string]any{}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		if err := out.Encode(reply); err != nil {
			return 1
		}
	}
	return 0
}

const standinSchema = `{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object","properties":{` +
	`"question":{"type":"string"},"header":{"type":"string"},"options":{"type":"array","items":{"type":"object",` +
	`"properties":{"label":{"type":"string"},"description":{"type":"string"}},"required":["label","description"]}},` +
	`"multiSelect":{"type":"boolean"}},"required":["question","header","options","multiSelect"]}}},"required":["questions"]}`

func appendJSON(path string, v any) {
	b, _ := json.Marshal(v)
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(b, '\n'))
}

// readLines decodes every line of a JSON-lines log; a missing log is empty.
func readLines[T any](t *testing.T, path string) []T {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}
