package hostrun

// crashAt is called at each step of a run or a continue where a crash
// must lose nothing and run nothing twice; the end-to-end tests' build
// kills the process at the step they name (crash_testhook.go), the
// released binary does nothing there.
var crashAt = func(step string) {}

// The steps crashAt names.
const (
	stepRecorded   = "recorded"   // a call and its set are recorded; nobody asked yet
	stepSuspended  = "suspended"  // the call is recorded as waiting; the agent not told yet
	stepExited     = "exited"     // the agent ended; where it stopped not recorded yet
	stepAnswered   = "answered"   // a resume recorded the answers; nothing continued yet
	stepContinuing = "continuing" // the continue is recorded; the agent not started yet
	stepStarted    = "started"    // the agent's continue started
)
