package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToResult(t *testing.T) {
	cases := []struct {
		name    string
		res     *mcp.CallToolResult
		want    string
		isError bool
	}{
		{"nil", nil, noOutput, false},
		{"empty error", &mcp.CallToolResult{IsError: true}, noOutputError, true},
		{"empty text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{}}}, noOutput, false},
		{"text over structured", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: "b"}}, StructuredContent: map[string]any{"x": 1}}, "a\nb", false},
		{"structured beside an image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/jpeg", Data: []byte("abc")}}, StructuredContent: []int{1, 2}},
			"[1,2]\n[image: image/jpeg, 3 bytes]", false},
		{"audio", &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: []byte("abcd")}}}, "[audio: unknown type, 4 bytes]", false},
		{"embedded text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a", Text: "hello"}}}},
			"[resource: file:///a]\nhello", false},
		{"embedded blob", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///b", MIMEType: "application/pdf", Blob: make([]byte, 7)}}}},
			"[resource: file:///b, application/pdf, 7 bytes]", false},
		{"link", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ResourceLink{URI: "https://x/y", Name: "y", Description: "the y"}}}, "[resource link: https://x/y (y): the y]", false},
	}
	for _, c := range cases {
		got := toResult(c.res, 1000)
		if got.Content != c.want || got.IsError != c.isError {
			t.Errorf("%s: %+v; want %q, isError %v", c.name, got, c.want, c.isError)
		}
	}
}

func TestCapTextCutsAtACharacter(t *testing.T) {
	s := strings.Repeat("é", 10) // 20 bytes
	got := capText(s, 5)
	if !strings.HasPrefix(got, "éé\n\n[askuser: the output was cut to 4 of its 20 bytes]") {
		t.Fatalf("got %q", got)
	}
	if capText("short", 5) != "short" {
		t.Fatal("text within the bound must be unchanged")
	}
}

func TestRawSchemasKeepTheServersOrder(t *testing.T) {
	store := newRawSchemas()
	tap := store.tap()
	msg := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}}}]}}`
	// Split mid-line and sent as an event, as a stream would deliver it.
	tap.Write([]byte("event: message\ndata: " + msg[:40]))
	tap.Write([]byte(msg[40:] + "\n\n"))
	var decoded any
	_ = json.Unmarshal([]byte(`{"properties":{"a":{"type":"number"},"z":{"type":"string"}},"type":"object"}`), &decoded)
	if got := string(store.Raw(decoded)); got != `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}}` {
		t.Fatalf("raw %s; want the server's order", got)
	}
	var other any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"q":{}}}`), &other)
	if got := string(store.Raw(other)); got != `{"properties":{"q":{}},"type":"object"}` {
		t.Fatalf("an unseen schema: %s; want it encoded as decoded", got)
	}
	long := newRawSchemas()
	lt := long.tap()
	lt.Write([]byte(`{"inputSchema":{"type":"object","x":"` + strings.Repeat("y", maxTapLine) + `"}}`))
	lt.Write([]byte("\n" + msg))
	lt.Flush()
	if got := string(long.Raw(decoded)); !strings.Contains(got, `"z":{"type":"string"},"a"`) {
		t.Fatalf("after an overlong line, a final line without newline: %s", got)
	}
	if len(long.kept) != 1 {
		t.Errorf("kept %d schemas; an overlong line must not be searched", len(long.kept))
	}
}
