package page

import (
	"time"

	"github.com/askuser/askuser/ask"
)

// The views each page renders: plain data, which package inbox builds from
// its state.

// CardsData is the body of the card page.
type CardsData struct {
	Cards []CardView
}

// AskedData is the page of a set asked outside a session.
type AskedData struct {
	Key     string
	Who     string
	AskedAt time.Time
	Status  string
	Card    CardView
}

// SessionData is a session's page.
type SessionData struct {
	ID, Prompt, Where, Machine, Status, StatusClass, Model string
	Created, Updated                                       time.Time
	Cards                                                  []CardView
	Open                                                   int
	Run                                                    *RunView
	Result                                                 string
	Transcript                                             []EntryView
}

type HomeData struct {
	Waiting, Others []SessionRow
	// Asked are the sets asked outside a session (askuser ask, mcp,
	// hook) that a process waits on now.
	Asked      []SessionRow
	MoreOthers int
	Dir        string
	// Store names the team store, when there is one.
	Store string
	// WaitingTotal counts every waiting session; Pager says which of
	// those the filter matches this page shows.
	WaitingTotal int
	Pager        Pager
	Filter       Filter
	Filtered     bool
	Machines     []MachineCount
	Ages         []struct{ Value, Label string }
}

// SessionRow is one session in the inbox's list.
type SessionRow struct {
	ID, Href, Prompt, Where, Machine string
	Status, StatusClass              string
	// Who says who waits: the agent, sub-agents.
	Who string
	// Since is when it started waiting (waiting sessions) or was last
	// updated (the others).
	Since time.Time
	Age   string
	// What says what it waits on: "2 question sets", "an approval of
	// mcp__fs__write_file".
	What     string
	Headers  []string
	Resuming bool
	// Busy: another process holds the session (it runs, or asks there).
	Busy bool
	// Resumes says where a session answered here resumes, when that is
	// another machine ("on build-7 in /src/app").
	Resumes string
}

// RunView is the Progress box.
type RunView struct {
	// Status says in one sentence where the answers given on the page
	// are now.
	Status string
	Lines  []LogLine
}

// LogLine is one line of the Progress box.
type LogLine struct {
	// At is the time of serve's own lines ("15:04:05").
	At string
	// Class styles it: serve, answer, agent, tool, result, done, error, text.
	Class, Text string
}

// EntryView is one step of a conversation, read-only.
type EntryView struct {
	// Class styles it: user, assistant, tool, result, error.
	Class, Who, Text string
	// Input is a tool call's input as JSON read by a person, when it is
	// JSON (then Text is empty).
	Input *ask.JSONNode
}

// Filter is the list filter a page shows and keeps in its links: a
// machine's name, a part of a directory, an age ("<1h", ">1d"), and which
// page of how many rows each.
type Filter struct {
	Machine, Dir string
	Age          string
	Page         int
	PerPage      int
}
