package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// serverEntry is one entry of "mcpServers" as written, with where it
// starts.
type serverEntry struct {
	name   string
	raw    json.RawMessage
	offset int64
}

// quietKey reports whether a key of a server entry passes without a
// warning: the keys askuser reads, and keys Claude Code reads that mean
// nothing here.
func quietKey(k string) bool {
	switch k {
	case "type", "command", "args", "env", "url", "headers", "timeout", "alwaysLoad", "description":
		return true
	}
	return false
}

// parseConfig reads one configuration.
func parseConfig(source string, data []byte) ([]ServerConfig, []string, []ConfigProblem) {
	at := func(off int64) string { return source + ":" + position(data, off, true) }
	var anyDoc any
	if err := json.Unmarshal(data, &anyDoc); err != nil {
		var se *json.SyntaxError
		where := at(0)
		if errors.As(err, &se) {
			// Offset is just past the byte that broke the syntax.
			where = source + ":" + position(data, max(se.Offset-1, 0), false)
		}
		return nil, nil, []ConfigProblem{{Where: where, Message: "not valid JSON: " + err.Error() + `; the format is {"mcpServers": {"NAME": {"command": "…", "args": […]}}}`}}
	}
	if _, ok := anyDoc.(map[string]any); !ok {
		return nil, nil, []ConfigProblem{{Where: at(0), Message: `is not a JSON object; the format is {"mcpServers": {"NAME": {…}}}`}}
	}
	entries, found := serverEntries(data)
	if !found {
		return nil, nil, []ConfigProblem{{Where: at(0), Message: `has no "mcpServers" object; the format is {"mcpServers": {"NAME": {"command": "…"}}}`}}
	}
	var servers []ServerConfig
	var warns []string
	var probs []ConfigProblem
	for _, e := range entries {
		where := at(e.offset)
		s, w, msgs := parseServer(e.name, e.raw)
		s.Source = where
		for _, m := range w {
			warns = append(warns, where+": "+m)
		}
		for _, m := range msgs {
			probs = append(probs, ConfigProblem{Where: where, Message: m})
		}
		if len(msgs) == 0 {
			servers = append(servers, s)
		}
	}
	return servers, warns, probs
}

// serverEntries walks valid JSON to "mcpServers", keeping its entries in
// the order written (a map would lose it) and where each begins.
func serverEntries(data []byte) ([]serverEntry, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, _ := dec.Token()
		if key, _ := t.(string); key != "mcpServers" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, false
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil, false
		}
		var entries []serverEntry
		for dec.More() {
			off := dec.InputOffset()
			t, _ := dec.Token()
			name, _ := t.(string)
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return nil, false
			}
			entries = append(entries, serverEntry{name: name, raw: raw, offset: off})
		}
		return entries, true
	}
	return nil, false
}

// parseServer reads one server entry. msgs are its problems; warns are
// keys it ignored.
func parseServer(name string, raw json.RawMessage) (s ServerConfig, warns, msgs []string) {
	s.Name = name
	shown := fmt.Sprintf("server %q", ask.Display(name))
	if m := checkName(name); m != "" {
		msgs = append(msgs, m)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return s, nil, append(msgs, shown+` is not an object; write {"command": "…", "args": […]} or {"type": "http", "url": "…"}`)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !quietKey(k) {
			warns = append(warns, fmt.Sprintf("%s: %q is not used by askuser (ignored)", shown, ask.Display(k)))
		}
	}
	get := func(key string, into any, want string) bool {
		v, ok := fields[key]
		if !ok || string(v) == "null" {
			return false
		}
		if err := json.Unmarshal(v, into); err != nil {
			msgs = append(msgs, fmt.Sprintf("%s: %q must be %s", shown, key, want))
			return false
		}
		return true
	}
	var typ string
	get("type", &typ, `a string: "stdio" or "http"`)
	get("command", &s.Command, "a string: the program to run")
	get("args", &s.Args, "a list of strings")
	get("env", &s.Env, "an object of strings")
	get("url", &s.URL, "a string")
	get("headers", &s.Headers, "an object of strings")
	var ms float64
	if get("timeout", &ms, "a number of milliseconds") {
		if ms < 1000 {
			msgs = append(msgs, fmt.Sprintf("%s: \"timeout\" is %v ms; give at least 1000 (it bounds each tool call, in milliseconds)", shown, ms))
		}
		s.Timeout = time.Duration(ms * float64(time.Millisecond))
	}
	msgs = append(msgs, s.expand(shown)...)
	transport, m := transportOf(shown, typ, s)
	s.Transport = transport
	return s, warns, append(msgs, m...)
}

// transportOf decides the server's transport from "type", or from what
// the entry holds when "type" is absent.
func transportOf(shown, typ string, s ServerConfig) (string, []string) {
	switch typ {
	case "":
		if s.URL != "" && s.Command == "" {
			typ = TransportHTTP
		} else {
			typ = TransportStdio
		}
	case TransportStdio, TransportHTTP:
	case "sse":
		return "", []string{shown + `: type "sse" is not supported; askuser connects to stdio and streamable HTTP servers. ` +
			`A server that offers SSE usually serves streamable HTTP too, often at /mcp instead of /sse: try {"type": "http", "url": "…/mcp"}`}
	default:
		return "", []string{fmt.Sprintf(`%s: type %q is not supported; use "stdio" (with "command") or "http" (with "url")`, shown, ask.Display(typ))}
	}
	var msgs []string
	switch typ {
	case TransportStdio:
		if strings.TrimSpace(s.Command) == "" {
			msgs = append(msgs, shown+`: "command" is required for a stdio server; give the program to run, such as "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]`)
		}
		if s.URL != "" {
			msgs = append(msgs, shown+`: "url" is for http servers; a stdio server runs "command" (remove one of them)`)
		}
	case TransportHTTP:
		if s.Command != "" || len(s.Args) > 0 {
			msgs = append(msgs, shown+`: "command" and "args" are for stdio servers; an http server is reached at "url" (remove one of them)`)
		}
		if u, err := url.Parse(s.URL); s.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			msgs = append(msgs, fmt.Sprintf(`%s: "url" must be an http:// or https:// address, such as "https://example.com/mcp" (got %q)`, shown, ask.Display(s.URL)))
		}
	}
	return typ, msgs
}

// expand replaces ${VAR} and ${VAR:-default} from the environment, as
// Claude Code does in .mcp.json; a variable that is not set and has no
// default is a problem.
func (s *ServerConfig) expand(shown string) []string {
	var msgs []string
	envRef := regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)
	sub := func(where, v string) string {
		return envRef.ReplaceAllStringFunc(v, func(ref string) string {
			m := envRef.FindStringSubmatch(ref)
			if val, ok := os.LookupEnv(m[1]); ok {
				return val
			}
			if m[2] != "" {
				return m[3]
			}
			msgs = append(msgs, fmt.Sprintf("%s: %s uses ${%s}, which is not set; set it, or give a default: ${%s:-value}", shown, where, m[1], m[1]))
			return ref
		})
	}
	s.Command = sub(`"command"`, s.Command)
	for i, a := range s.Args {
		s.Args[i] = sub(fmt.Sprintf(`"args"[%d]`, i), a)
	}
	for k, v := range s.Env {
		s.Env[k] = sub(fmt.Sprintf(`"env".%s`, k), v)
	}
	s.URL = sub(`"url"`, s.URL)
	for k, v := range s.Headers {
		s.Headers[k] = sub(fmt.Sprintf(`"headers".%s`, k), v)
	}
	sort.Strings(msgs) // maps: report in a stable order
	return msgs
}

// position turns a byte offset into "line:column" (both from 1, the
// column in characters); skip moves past the separators before a token.
func position(data []byte, off int64, skip bool) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	for skip && off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	col := 1 + utf8.RuneCount(data[start:off])
	return fmt.Sprintf("%d:%d", line, col)
}
