package approval

import (
	"fmt"

	"github.com/askuser/askuser/ask"
)

// Every decision is told in one sentence, written here once, that a model
// and a person can both read: what was not run (or what allowed it), who
// decided — a rule and where it was written, the answers file, the policy,
// a program, the user — and what to do next. Callers (askuser hook, askuser
// mcp's approve, askuser run's gate) pass it on unchanged and add nothing
// to it, so nothing is said twice.

// The endings of a denial: what the model should do.
const (
	thenAsk     = "do not retry it, and continue without it or ask the user"
	thenInstead = "do not retry it, and continue without it or ask the user what to do instead"
	thenRule    = "do not retry it, and continue without it or ask the user to change the rule"
	// thenNoAsk is for a call nobody could be asked about: the person
	// reading the host's log learns how to decide it in advance.
	thenNoAsk = "do not retry it, and continue without it (a rule under approvals: in the answers file decides such calls without asking)"
)

// notRun is a denial: tool was not run, because; then.
func notRun(tool, because, then string) string {
	return fmt.Sprintf("%s was not run: %s; %s.", tool, because, then)
}

// deniedByRule is the decision of a deny rule.
func deniedByRule(tool string, r Rule) Decision {
	return Decision{By: ByRule, Why: r.Describe(), Message: notRun(ask.Display(tool), r.Describe()+" denies it", thenRule)}
}

// Failed is the decision when deciding itself failed (bad input, a
// frontend that broke, a timeout): a denial that says what went wrong.
// Callers that must answer a host whatever happens (askuser hook, whose
// host runs the tool when the hook fails) use it rather than failing open.
// tool may be "" when the call names none.
func Failed(tool string, err error) Decision {
	what := "The call"
	if tool != "" {
		what = ask.Display(tool)
	}
	cause := ask.Display(err.Error())
	return Decision{By: ByPolicy, Why: "the approval could not be asked: " + cause,
		Message: notRun(what, "askuser could not ask for approval ("+cause+")", thenNoAsk)}
}

// Malformed is the decision about a request askuser cannot read (no tool
// named, arguments that are not JSON): a call nobody can name is one no
// rule or person can decide, so the denial says what is wrong with the
// request and how a whole one reads (shape), not how to add a rule.
// request names it ("permission request", "PreToolUse event").
func Malformed(request, problem, shape string) Decision {
	problem = ask.Display(problem)
	return Decision{By: ByPolicy, Why: "a malformed " + request + ": " + problem,
		Message: fmt.Sprintf("The call was not run: askuser received a malformed %s (%s), which no rule can decide; %s, so send it whole or continue without the call.", request, problem, shape)}
}

// FromAnswers turns the answers to an approval question (Request.Question)
// into a decision. A policy's answer never approves: whatever it picked,
// the call is denied, saying no person approved it.
func FromAnswers(req Request, answers []ask.Answer) Decision {
	return Policy{}.Answered(req, answers)
}

// Answered is FromAnswers for a call p's rules left to be asked about: a
// denial for want of a rule advises only what p's rules do not decide
// already (allowAdvice).
func (p Policy) Answered(req Request, answers []ask.Answer) Decision {
	tool := ask.Display(req.Tool)
	if len(answers) != 1 {
		return Decision{By: ByPolicy, Why: "no answer", Message: notRun(tool, "nobody answered its approval question", thenAsk)}
	}
	a := answers[0]
	by, who := makerOf(a.Source), whoAnswered(a)
	switch {
	case by == ByPolicy:
		reason := "the recommended-option policy never allows a tool"
		if a.Reason != "" {
			reason = ask.Display(a.Reason) + "; " + reason
		}
		return Decision{By: ByPolicy, Why: reason, Message: notRun(tool, "no person approved it ("+reason+")", thenAsk)}
	case a.Declined != nil:
		msg := notRun(tool, who+" declined to answer its approval question (askuser cancel)", thenAsk)
		if a.Declined.Reason != "" {
			msg = msg[:len(msg)-1] + "; their reason: " + ask.CleanDeclineReason(a.Declined.Reason)
		}
		return Decision{By: by, Why: who + ", declined to answer", Message: msg}
	case len(a.Selected) == 1 && a.Selected[0] == LabelAllow:
		return Decision{Allow: true, Scope: ScopeOnce, By: by, Why: who}
	case len(a.Selected) == 1 && a.Selected[0] == LabelAllowSession:
		return Decision{Allow: true, Scope: ScopeSession, By: by, Why: who}
	case a.Custom != "":
		return Decision{By: by, Why: who, Message: fmt.Sprintf("%s was not run, and %s said instead: %s", tool, who, a.Custom)}
	case len(a.Selected) == 1 && a.Selected[0] == LabelDeny:
		return Decision{By: by, Why: who, Message: notRun(tool, who+" denied it", thenInstead)}
	case by == ByFile:
		// The file answers an approval only to say it has no rule for it.
		file := "the answers file"
		if a.Via != "" {
			file = ask.Display(a.Via)
		}
		return Decision{By: by, Why: who, Message: notRun(tool, who+" has no approval rule that allows it",
			"do not retry it, and continue without it ("+allowAdvice(req, file, p)+")")}
	case a.Reason != "":
		return Decision{By: by, Why: ask.Display(a.Reason), Message: notRun(tool, "its approval question was not answered ("+ask.Display(a.Reason)+")", thenAsk)}
	}
	return Decision{By: by, Why: who, Message: notRun(tool, "its approval question was skipped by "+who, thenAsk)}
}

// whoAnswered names who answered an approval question, for a sentence:
// "the user", "the answers file ci.yaml", "a program over JSON lines (not
// confirmed to be a person) on stdin".
func whoAnswered(a ask.Answer) string {
	switch a.Source {
	case ask.SourcePerson:
		return "the user"
	case ask.SourceFile:
		if a.Via != "" {
			return "the answers file " + ask.Display(a.Via)
		}
		return "an answers file"
	}
	who := a.Source.Describe()
	if a.Via != "" {
		who += " on " + ask.Display(a.Via)
	}
	return who
}

// AllowNote tells the model, in one sentence, who allowed a call when it
// was not a person at the time; "" when it was.
func (d Decision) AllowNote(tool string) string {
	if !d.Allow || !d.Machine() {
		return ""
	}
	return fmt.Sprintf("%s was allowed by %s, not by a person at the time.", ask.Display(tool), d.Why)
}
