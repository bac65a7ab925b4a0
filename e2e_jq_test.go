package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdJQPath reads FILE (or stdout) as jq does: it must hold exactly one
// JSON document, and the value at PATH becomes the new stdout (a string as
// it is, anything else as JSON), like jq -r .PATH. A second document, or
// text around the one, fails, where jsonvar would skip it.
//
//	jqpath FILE PATH
func cmdJQPath(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: jqpath FILE PATH")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	var v any
	if err := dec.Decode(&v); err != nil {
		ts.Fatalf("jqpath: %s is not a JSON document: %v", args[0], err)
	}
	var more any
	if err := dec.Decode(&more); err != io.EOF {
		ts.Fatalf("jqpath: %s holds more than one JSON document (then %v, %v)", args[0], more, err)
	}
	x := lookup(v, args[1])
	s, ok := x.(string)
	if !ok {
		b, _ := json.Marshal(x)
		s = string(b)
	}
	fmt.Fprintln(ts.Stdout(), s)
}
