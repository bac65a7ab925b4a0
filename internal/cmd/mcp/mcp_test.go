package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// hookAsk is a Claude Code hook event, whose tool input the MCP host
// sends as AskUserQuestion's arguments.
const hookAsk = `{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_1","tool_input":{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"R"},{"label":"SQLite","description":"E"}],"multiSelect":false}]}}`

// TestMCPCommand runs askuser mcp in process over pipes, as a host would.
func TestMCPCommand(t *testing.T) {
	f := cmdtest.WriteFile(t, "ci.yaml", cmdtest.RulesFile)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cmdtest.Run(context.Background(), []string{"askuser", "mcp", "--answers", f, "--verbose"}, inR, outW, &errOut, cmdtest.Cmd(NewCmdMCP))
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	reply := func(id string) string {
		for lines.Scan() {
			if strings.Contains(lines.Text(), `"id":`+id+`,`) {
				return lines.Text()
			}
		}
		t.Fatalf("no reply to %s (stderr %s)", id, errOut.String())
		return ""
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	reply("1")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var ev map[string]json.RawMessage
	_ = json.Unmarshal([]byte(hookAsk), &ev)
	// With the field Gemini CLI adds to every tool, which --verbose notes.
	args := strings.Replace(string(ev["tool_input"]), `{`, `{"wait_for_previous":false,`, 1)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + args + `}}`)
	if r := reply("2"); !strings.Contains(r, `Selected: PostgreSQL\n   Answered by: an answers file`) {
		t.Errorf("AskUserQuestion replied %s", r)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"approve","arguments":{"tool_name":"Bash","input":{"command":"git status"}}}}`)
	if r := reply("3"); !strings.Contains(r, `{\"behavior\":\"allow\",\"updatedInput\":{\"command\":\"git status\"}}`) {
		t.Errorf("approve replied %s", r)
	}
	inW.Close()
	select {
	case code := <-done:
		if code != cmdutil.ExitOK {
			t.Errorf("askuser mcp exited %d when its input ended; stderr %s", code, errOut.String())
		}
		if !strings.Contains(errOut.String(), "ignored wait_for_previous (Gemini CLI adds it to every tool)") {
			t.Errorf("askuser mcp --verbose did not note the ignored field; stderr %s", errOut.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("askuser mcp did not exit when its input ended")
	}
}
