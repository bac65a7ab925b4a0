package main

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
)

// seenExits records, by askuser command ("" for askuser itself), the exit
// codes the scripts saw it return, for TestScripts to hold against the
// codes each command's help lists.
var seenExits = struct {
	sync.Mutex
	codes map[string]map[int][]string // command, code: where it was seen
}{codes: map[string]map[int][]string{}}

// noteExit records that argv (a program and its arguments, or sh -c
// SCRIPT) exited with code, if it ran askuser exactly once; where names
// the script (its work directory, script-NAME).
func noteExit(argv []string, code int, where string) {
	words := argv
	if len(argv) == 3 && filepath.Base(argv[0]) == "sh" && argv[1] == "-c" {
		words = strings.Fields(argv[2])
	}
	at := -1
	for i, w := range words {
		if filepath.Base(w) == "askuser" {
			if at >= 0 {
				return // two askusers in one shell line: whose code is it?
			}
			at = i
		}
	}
	if at < 0 {
		return
	}
	cmd := ""
	for _, w := range words[at+1:] {
		if !strings.HasPrefix(w, "-") {
			if _, ok := cmdutil.CommandExitCodes()[w]; ok {
				cmd = w
			}
			break
		}
	}
	seenExits.Lock()
	defer seenExits.Unlock()
	if seenExits.codes[cmd] == nil {
		seenExits.codes[cmd] = map[int][]string{}
	}
	seenExits.codes[cmd][code] = append(seenExits.codes[cmd][code], where)
}

// checkExitCodes holds the codes the scripts saw against each command's
// help: every code seen must be listed, and, when every script ran
// (complete), every listed code must have been seen.
func checkExitCodes(t *testing.T, complete bool) {
	seenExits.Lock()
	defer seenExits.Unlock()
	listed := cmdutil.CommandExitCodes()
	var names []string
	for name := range listed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for code, where := range seenExits.codes[name] {
			if !slices.Contains(listed[name], code) {
				t.Errorf("askuser %s exited %d (%s), but its help does not list %d", name, code, where[0], code)
			}
		}
		if !complete {
			continue
		}
		for _, code := range listed[name] {
			if len(seenExits.codes[name][code]) == 0 {
				t.Errorf("askuser %s lists exit code %d, but no script saw it return %d", name, code, code)
			}
		}
	}
}
