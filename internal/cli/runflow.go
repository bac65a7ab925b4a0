package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/session"
)

// notifyGrace is how long a run that is ending waits for --notify-cmd.
const notifyGrace = 5 * time.Second

// bellAfter is how long the agent must have worked for --bell auto to ring.
const bellAfter = 5 * time.Second

func runRun(c *cli.Context, e *env) error {
	o, err := readRunOptions(c, e)
	if err != nil {
		return err
	}
	if err := blankPrompt(c); err != nil {
		return err
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	var sess *session.Session
	if c.IsSet("resume") && c.String("resume") == "" {
		return usageErrorf("--resume: the session id is empty; give one (askuser sessions lists them), or --continue for the most recent session here")
	}
	if id := c.String("resume"); id != "" || c.Bool("continue") {
		if id != "" && c.Bool("continue") {
			return usageErrorf("give --resume ID or --continue, not both")
		}
		if id == "" {
			var said string
			if id, said, err = pickLatestHere(store, machineName(e)); err != nil {
				return err
			}
			fmt.Fprintln(e.ios.ErrOut, said)
		}
		if sess, err = openSession(store, id); err != nil {
			return err
		}
		defer sess.Close()
		if len(sess.State.Pending()) > 0 {
			return usageErrorf("session %s is %s; answer it first with askuser resume %s", sess.Meta.ID, sess.Summary().StatusWords(), sess.Meta.ID)
		}
		if sess.State.UnsentResults() {
			return usageErrorf("session %s stopped before the answers to its questions reached the model; continue it first with askuser resume %s", sess.Meta.ID, sess.Meta.ID)
		}
		if !c.IsSet("system-prompt") && !c.IsSet("append-system-prompt") && sess.Meta.System != "" {
			o.system = sess.Meta.System
		}
	}
	var from *session.Meta
	if sess != nil {
		from = &sess.Meta
	}
	spec := readProviderSpec(c, e, from)
	prov, err := newProvider(c.Context, spec, e)
	if err != nil {
		return err
	}
	sub, subModel, err := subProvider(c, e, spec, from)
	if err != nil {
		return err
	}
	tools := readToolSpec(c, from)
	var prompt string
	stdinUsed := false
	if err := o.stdinFree(c); err != nil {
		return err
	}
	if !o.streamInput {
		if prompt, stdinUsed, err = readPrompt(c, e); err != nil {
			return err
		}
	}
	if sess == nil {
		meta := providerMeta(prov, spec)
		meta.System, meta.FirstPrompt, meta.SubagentModel = o.system, prompt, subModel
		tools.record(&meta)
		placeMeta(&meta, e)
		if sess, err = store.Create(meta); err != nil {
			return err
		}
		defer sess.Close()
	}
	r := &runner{e: e, o: o, sess: sess, prov: prov, sub: sub, tools: tools, store: store}
	if o.streamInput {
		return r.streamConversation(c.Context)
	}
	return r.once(c.Context, &agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: prompt}}}, stdinUsed)
}

// openSession opens a session by id (or a prefix only it has). An id that
// names no session, or several, is a usage error, whichever command
// gave it.
func openSession(store *session.Store, id string) (*session.Session, error) {
	s, err := store.Open(id)
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
		return nil, withCode(ExitUsage, err)
	}
	return s, err
}

// runner executes runs of one session.
type runner struct {
	e    *env
	o    runOptions
	sess *session.Session
	prov agentloop.Provider
	// sub is the provider of sub-agents (nil: prov).
	sub agentloop.Provider
	// tools says which MCP servers to start and which calls may run.
	tools toolSpec
	store *session.Store
	// intro, if set, runs once the frontend is chosen, before the run
	// (resume shows the person what they are answering).
	intro func(*chosen)
	// late says the run answers sets asked before (askuser resume): their
	// answers may wait in the mailbox already.
	late bool

	out    *lineWriter
	ch     *chosen
	rt     *runTools
	pr     *printer
	notify *notifier
	loop   *agentloop.Loop
}

// setup chooses the frontend and builds the loop and the printer.
func (r *runner) setup(ctx context.Context, stdinUsed bool) error {
	out := r.e.ios.Out
	if r.o.format == outText {
		out = r.e.ios.TextOut() // model text, for a person: sanitised (JSON lines pass unchanged)
	}
	r.out = &lineWriter{w: out}
	o := r.o
	o.frontendSpec.place.session, o.frontendSpec.place.title = string(r.sess.Meta.ID), r.sess.Summary().Title
	ch, err := runFrontend(ctx, o, r.e, stdinUsed, frontend.StdioConfig{In: r.e.ios.In, Out: r.out, Via: "stdin", SessionID: string(r.sess.Meta.ID),
		Expected: r.sess.State.PendingQuestions()}) // a resumed run asks these again, in no fixed order
	if err != nil {
		return err
	}
	r.ch = ch
	fallback := ask.Frontend(frontend.Auto{Reason: ask.TimeoutReason(r.o.askTimeout)})
	if ch.rel != nil || r.late {
		// Answers may come from elsewhere: a late one waits in the
		// mailbox, and a set is answered once, by whoever is first.
		if ch.rel == nil {
			ch.fe = mailboxed(ch.fe, r.store, string(r.sess.Meta.ID), r.e.ios.ErrOut)
		}
		fallback = mailboxed(fallback, r.store, string(r.sess.Meta.ID), r.e.ios.ErrOut)
	}
	if r.o.frontendSpec.verbose {
		fmt.Fprintf(r.e.ios.ErrOut, "askuser: session %s, model %s, asking through %s: %s\n", r.sess.Meta.ID, describeProvider(r.prov), ch.name, ch.why)
	}
	r.notify = &notifier{cmd: r.o.notifyCmd, sessionID: string(r.sess.Meta.ID), errOut: r.e.ios.ErrOut, url: ch.url, stateDir: r.store.Dir}
	w := &watched{inner: ch.fe, waitsForSomeone: ch.waitsForSomeone(), notify: r.notify, lastInput: time.Now()}
	if ch.name == feSurvey && r.o.bell != "never" && ch.tty != nil {
		w.bell = ch.tty
		if r.o.bell == "auto" {
			w.bellAfter = bellAfter
		}
	}
	if r.rt, err = r.buildTools(ctx, ch.rules); err != nil {
		ch.close()
		return err
	}
	r.pr = &printer{format: r.o.format, out: r.out, errOut: r.e.ios.ErrOut, sessionID: string(r.sess.Meta.ID), model: r.prov.Model(), tools: r.rt.reg.Names(),
		stream: !r.o.print && r.o.format == outText, stdioQuestions: ch.stdio != nil && r.o.protocolOut == nil, surveySummary: ch.name == feSurvey,
		cost: newCostMeter(r.prov, r.sub)}
	r.pr.watchTerminal(r.e.ios, r.o)
	r.loop = &agentloop.Loop{Provider: r.prov, Tools: r.rt.reg, Frontend: w, System: r.o.system, MaxTurns: r.o.maxTurns,
		AskTimeout: r.o.askTimeout, OnTimeout: r.o.onTimeout, TimeoutFallback: fallback,
		Journal: r.sess, Observe: r.pr.event}
	cwd, _ := os.Getwd()
	r.pr.init(cwd, r.prov.Name(), r.rt.servers, string(r.rt.mode))
	return nil
}

// teardown closes what setup opened: the MCP servers, then the frontend.
func (r *runner) teardown() {
	r.rt.close()
	r.ch.close()
}

// once runs one prompt (nil: only answer what is pending) to its end.
func (r *runner) once(ctx context.Context, prompt *agentloop.Message, stdinUsed bool) error {
	if err := r.setup(ctx, stdinUsed); err != nil {
		return err
	}
	defer r.teardown()
	if r.intro != nil {
		r.intro(r.ch)
	}
	return r.finish(r.step(ctx, prompt))
}

// step runs the loop once and records and prints how it ended.
func (r *runner) step(ctx context.Context, prompt *agentloop.Message) agentloop.Outcome {
	began := time.Now()
	out := r.loop.Run(ctx, r.sess.State, prompt)
	detail := out.Reason
	if out.Err != nil {
		detail = out.Err.Error()
	}
	if err := r.sess.SetStatus(string(out.Status), detail, out.Turns, out.Usage); err != nil && out.Err == nil {
		out.Status, out.Err = agentloop.StatusError, err
	}
	r.pr.result(newRunResult(string(r.sess.Meta.ID), out, time.Since(began)))
	return out
}

// finish waits for notifications and maps the outcome to an exit, through
// runEnds.
func (r *runner) finish(out agentloop.Outcome) error {
	r.notify.wait(notifyGrace)
	code := runEnds[out.Status].code
	switch out.Status {
	case agentloop.StatusSuccess:
		return nil
	case agentloop.StatusWaiting:
		return withCode(code, quiet{fmt.Errorf("waiting for an answer: %s", out.Reason)})
	case agentloop.StatusMaxTurns:
		return withCode(code, fmt.Errorf("%s; to let it go on: askuser resume %s", out.Reason, r.sess.Meta.ID))
	case agentloop.StatusTimeout:
		return withCode(code, fmt.Errorf("%s; the session is still %s: askuser resume %s", out.Reason, r.sess.Summary().StatusWords(), r.sess.Meta.ID))
	case agentloop.StatusCancelled:
		return withCode(code, fmt.Errorf("cancelled; session %s can be resumed", r.sess.Meta.ID))
	}
	return out.Err
}

// streamConversation holds a conversation over pipes: user-message lines
// on standard input start runs, answers arrive on the same stream.
func (r *runner) streamConversation(ctx context.Context) error {
	if err := r.setup(ctx, false); err != nil {
		return err
	}
	defer r.teardown()
	users := r.ch.stdio
	if users == nil {
		users = frontend.NewStdio(frontend.StdioConfig{In: r.e.ios.In, Out: r.out, Via: "stdin", SessionID: string(r.sess.Meta.ID)})
	}
	var last agentloop.Outcome
	last.Status = agentloop.StatusSuccess
	for {
		raw, err := users.NextUser(ctx)
		if err != nil {
			if ctx.Err() != nil {
				last.Status = agentloop.StatusCancelled
			}
			break
		}
		msg, err := parseUserLine(raw)
		if err != nil {
			r.pr.line(wire.NewError("", err.Error()))
			continue
		}
		if r.sess.Meta.FirstPrompt == "" {
			r.sess.Meta.FirstPrompt = msg.Text()
		}
		last = r.step(ctx, &msg)
		if last.Status == agentloop.StatusCancelled {
			break
		}
	}
	return r.finish(last)
}

// parseUserLine reads Claude Code's user line:
// {"type":"user","message":{"role":"user","content":"text" or [blocks]}}.
func parseUserLine(raw json.RawMessage) (agentloop.Message, error) {
	var line struct {
		Message struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(raw, &line); err != nil {
		return agentloop.Message{}, fmt.Errorf("user line: %v", err)
	}
	msg := agentloop.Message{Role: agentloop.RoleUser}
	var text string
	if json.Unmarshal(line.Message.Content, &text) == nil {
		msg.Content = []agentloop.Block{{Type: agentloop.BlockText, Text: text}}
	} else if err := json.Unmarshal(line.Message.Content, &msg.Content); err != nil {
		return msg, fmt.Errorf(`user line: message.content must be a string or an array of {"type":"text","text":...} blocks`)
	}
	for _, b := range msg.Content {
		if b.Type != agentloop.BlockText {
			return msg, fmt.Errorf("user line: only text blocks are accepted in message.content, got %s; answer questions with answer lines", ask.Excerpt(b.Type))
		}
	}
	if strings.TrimSpace(msg.Text()) == "" {
		return msg, fmt.Errorf(`user line: message.content is empty (or only white space); send {"type":"user","message":{"role":"user","content":"..."}}`)
	}
	return msg, nil
}

// quiet is an error whose message was already shown to the person (the
// printer described it), so Run does not print it again.
type quiet struct{ error }

func (q quiet) Unwrap() error { return q.error }
