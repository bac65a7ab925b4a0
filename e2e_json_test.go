package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// jsonCmds are the script commands that read askuser's JSON output and
// edit session journals.
func jsonCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"jsonlines": cmdJSONLines,
		"jsonvar":   cmdJSONVar,
		"jsoncanon": cmdJSONCanon,
		"jsonkeys":  cmdJSONKeys,
		"jqpath":    cmdJQPath,
		"corrupt":   cmdCorrupt,
		"backdate":  cmdBackdate,
	}
}

// cmdJSONLines checks that every line of FILE (or stdout) is one JSON
// event of --output-format stream-json with the fields its type requires,
// and that all the events name one session. It prints each event's type
// (type/subtype for system and result lines), one per line, as the new
// stdout, so a script can compare the sequence.
//
//	jsonlines FILE
func cmdJSONLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: jsonlines FILE")
	}
	var kinds []string
	session := ""
	for i, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			ts.Fatalf("%s line %d is not a JSON object: %v\n%s", args[0], i+1, err, line)
		}
		kind, err := checkEvent(ev)
		if err != nil {
			ts.Fatalf("%s line %d: %v\n%s", args[0], i+1, err, line)
		}
		if id, ok := ev["session_id"].(string); ok {
			if session != "" && id != session {
				ts.Fatalf("%s line %d: session %q, earlier lines %q", args[0], i+1, id, session)
			}
			session = id
		}
		kinds = append(kinds, kind)
	}
	if len(kinds) == 0 {
		ts.Fatalf("%s has no JSON lines", args[0])
	}
	fmt.Fprintln(ts.Stdout(), strings.Join(kinds, "\n"))
}

// eventFields lists, by event type, the fields an event must have and
// their kinds.
var eventFields = map[string][][2]string{
	"system":    {{"subtype", "string"}, {"session_id", "string"}, {"model", "string"}, {"tools", "array"}},
	"assistant": {{"session_id", "string"}, {"message.role", "string"}, {"message.content", "array"}},
	"user":      {{"session_id", "string"}, {"message.role", "string"}, {"message.content", "array"}},
	"question":  {{"session_id", "string"}, {"id", "string"}, {"questions", "array"}},
	"answers":   {{"session_id", "string"}, {"id", "string"}, {"answers", "array"}},
	"error":     {{"error", "string"}},
	"result": {{"subtype", "string"}, {"is_error", "bool"}, {"num_turns", "number"}, {"duration_ms", "number"},
		{"result", "string?"}, {"session_id", "string"}, {"usage", "object"}},
}

// checkEvent checks one event and returns its kind.
func checkEvent(ev map[string]any) (string, error) {
	typ, _ := ev["type"].(string)
	fields, ok := eventFields[typ]
	if !ok {
		return "", fmt.Errorf("unknown or missing type %q", typ)
	}
	for _, f := range fields {
		if err := need(ev, f[0], f[1]); err != nil {
			return "", err
		}
	}
	kind := typ
	switch typ {
	case "system":
		kind += "/" + ev["subtype"].(string)
	case "result":
		kind += "/" + ev["subtype"].(string)
		if ev["subtype"] == "waiting_on_question" {
			if err := checkPending(ev); err != nil {
				return "", err
			}
		}
	case "user":
		for i, b := range lookup(ev, "message.content").([]any) {
			blk, _ := b.(map[string]any)
			if blk["type"] != "tool_result" {
				return "", fmt.Errorf("message.content.%d is not a tool_result block", i)
			}
			if err := need(blk, "tool_use_id", "string"); err != nil {
				return "", err
			}
			if _, ok := blk["content"]; !ok {
				return "", fmt.Errorf("message.content.%d has no content", i)
			}
		}
	}
	return kind, nil
}

// checkPending checks a waiting result names what it waits on and how to
// resume it.
func checkPending(ev map[string]any) error {
	if err := need(ev, "resume_command", "string"); err != nil {
		return err
	}
	pending, _ := ev["pending_questions"].([]any)
	if len(pending) == 0 {
		return fmt.Errorf("a waiting result without pending_questions")
	}
	for i := range pending {
		for _, f := range [][2]string{{"id", "string"}, {"questions", "array"}} {
			if err := need(ev, fmt.Sprintf("pending_questions.%d.%s", i, f[0]), f[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// need checks that path holds a value of kind: string (non-empty),
// string? (possibly empty), bool, number, array (non-empty) or object.
func need(v any, path, kind string) error {
	x := lookup(v, path)
	ok := false
	switch kind {
	case "string":
		s, isStr := x.(string)
		ok = isStr && s != ""
	case "string?":
		_, ok = x.(string)
	case "bool":
		_, ok = x.(bool)
	case "number":
		_, ok = x.(float64)
	case "array":
		a, isArr := x.([]any)
		ok = isArr && len(a) > 0
	case "object":
		_, ok = x.(map[string]any)
	}
	if !ok {
		return fmt.Errorf("%s: want a %s, got %#v", path, kind, x)
	}
	return nil
}

// lookup follows a dotted path (object keys and array indices) into v.
func lookup(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// cmdJSONVar sets a variable from askuser's JSON output:
//
//	jsonvar NAME FILE PATH
//
// The value is taken from the first line of FILE (or stdout) that is a
// JSON object with a value at PATH; strings are used as they are, other
// values as JSON.
func cmdJSONVar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonvar NAME FILE PATH")
	}
	for _, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		var v any
		if json.Unmarshal([]byte(line), &v) != nil {
			continue
		}
		x := lookup(v, args[2])
		if x == nil {
			continue
		}
		s, ok := x.(string)
		if !ok {
			b, _ := json.Marshal(x)
			s = string(b)
		}
		ts.Setenv(args[0], s)
		return
	}
	ts.Fatalf("jsonvar: no JSON line of %s has %s", args[1], args[2])
}

// cmdJSONCanon prints every JSON line of FILE (or stdout) with its object
// keys sorted, as the new stdout, so scripts can match several fields of a
// line in one regular expression whatever order askuser writes them in.
// Lines that are not JSON are dropped.
//
//	jsoncanon FILE
func cmdJSONCanon(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: jsoncanon FILE")
	}
	enc := json.NewEncoder(ts.Stdout()) // maps are written with sorted keys
	enc.SetEscapeHTML(false)
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		var v any
		if json.Unmarshal([]byte(line), &v) != nil {
			continue
		}
		ts.Check(enc.Encode(v))
	}
}

// cmdJSONKeys prints the top-level keys, in the order written, of every
// JSON line of FILE (or stdout) whose "type" is TYPE, one line of
// comma-separated keys per JSON line, as the new stdout.
//
//	jsonkeys FILE TYPE
func cmdJSONKeys(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: jsonkeys FILE TYPE")
	}
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		var typed struct{ Type string }
		if json.Unmarshal([]byte(line), &typed) != nil || typed.Type != args[1] {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.Token() // {
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			ts.Check(err)
			keys = append(keys, k.(string))
			var skip json.RawMessage
			ts.Check(dec.Decode(&skip))
		}
		fmt.Fprintln(ts.Stdout(), strings.Join(keys, ","))
	}
}

// cmdCorrupt damages a file the way a crash or a disk fault would:
//
//	corrupt FILE last   cut the last line in half, with no newline after it
//	corrupt FILE N      cut line N (from 1) in half, keeping the lines after it
func cmdCorrupt(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: corrupt FILE last|N")
	}
	path := ts.MkAbs(args[0])
	lines := strings.SplitAfter(ts.ReadFile(path), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	n := len(lines)
	if args[1] != "last" {
		var err error
		if n, err = strconv.Atoi(args[1]); err != nil || n < 1 || n > len(lines) {
			ts.Fatalf("corrupt: line %q of %d", args[1], len(lines))
		}
	}
	line := strings.TrimSuffix(lines[n-1], "\n")
	half := line[:len(line)/2]
	if n == len(lines) && args[1] == "last" {
		lines[n-1] = half
	} else {
		lines[n-1] = half + "\n"
	}
	ts.Check(os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600))
}

// cmdBackdate moves the "asked" records of a session journal into the
// past, as if the question had waited that long before it was answered;
// with -all, every record and the session's creation, as if the whole
// session had happened that long ago:
//
//	backdate [-all] FILE DURATION
//
// It lets a script check the exact "Answered later: ..., 2h0m after it was
// asked" wording, or prune sessions by age, without waiting or depending on
// how fast the test ran.
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	all := len(args) == 3 && args[0] == "-all"
	if all {
		args = args[1:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: backdate [-all] FILE DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	lines := strings.SplitAfter(ts.ReadFile(path), "\n")
	moved := 0
	for i, line := range lines {
		var rec map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &rec) != nil || (!all && string(rec["type"]) != `"asked"`) {
			continue
		}
		rec["at"] = shiftTime(ts, rec["at"], d)
		if meta, ok := rec["meta"]; ok && all {
			var m map[string]json.RawMessage
			ts.Check(json.Unmarshal(meta, &m))
			m["created"] = shiftTime(ts, m["created"], d)
			rec["meta"], _ = json.Marshal(m)
		}
		b, err := json.Marshal(rec)
		ts.Check(err)
		lines[i] = string(b) + "\n"
		moved++
	}
	if moved == 0 {
		ts.Fatalf("backdate: %s has no asked records", args[0])
	}
	ts.Check(os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600))
}

// shiftTime moves a JSON time d into the past.
func shiftTime(ts *testscript.TestScript, raw json.RawMessage, d time.Duration) json.RawMessage {
	var at time.Time
	ts.Check(json.Unmarshal(raw, &at))
	out, _ := json.Marshal(at.Add(-d))
	return out
}

// matchOrFail fails the script unless text matches the regular expression.
func matchOrFail(ts *testscript.TestScript, pattern, text, what string) {
	re, err := regexp.Compile(pattern)
	ts.Check(err)
	if !re.MatchString(text) {
		ts.Fatalf("%s does not match %q:\n%s", what, pattern, text)
	}
}
