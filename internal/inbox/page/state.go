package page

import "strconv"

// Card states, as the page names them (data-state). The broker and the
// inbox set them; the page shows them.
const (
	StateOpen      = "open"
	StateAnswered  = "answered"
	StateWithdrawn = "withdrawn"
	// StateSent is the inbox's: answered on the page and handed to askuser
	// resume, which has not finished with it yet.
	StateSent = "sent"
	// StateBusy is the inbox's: the process that runs the session asks the
	// set now, so the page does not take an answer for it.
	StateBusy = "busy"
)

// Form field names of question i: its choices (option indexes, or
// "other") and its free text.
func ChoiceField(i int) string { return "q" + strconv.Itoa(i) }

func OtherField(i int) string { return "q" + strconv.Itoa(i) + ".other" }

// NoneField is the field that confirms a multi-select submitted with
// nothing ticked: the page asks "Submit with nothing selected?", as the
// terminal does, and sends it when the person says yes.
func NoneField(i int) string { return "q" + strconv.Itoa(i) + ".none" }

// Thousands writes n with its thousands marked: 1,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Pager says where a page is in the list: what it shows of how many, and
// the links to the pages beside it.
type Pager struct {
	First, Last, Total int
	Prev, Next         string
}

// MachineCount is a machine and how many waiting sessions it has.
type MachineCount struct {
	Name     string
	Count    int
	Selected bool
}
