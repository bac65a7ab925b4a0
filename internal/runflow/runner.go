package runflow

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// notifyGrace is how long a run that is ending waits for --notify-cmd.
const notifyGrace = 5 * time.Second

// bellAfter is how long the agent must have worked for --bell auto to ring.
const bellAfter = 5 * time.Second

// runner executes runs of one session.
type runner struct {
	f    *cmdutil.Factory
	o    Options
	sess *session.Session
	prov agentloop.Provider
	// sub is the provider of sub-agents (nil: prov).
	sub agentloop.Provider
	// tools says which MCP servers to start and which calls may run.
	tools toolSpec
	store *session.Store
	// intro, if set, runs once the frontend is chosen, before the run
	// (resume shows the person what they are answering).
	intro func(*chooser.Chosen)
	// late says the run answers sets asked before (askuser resume): their
	// answers may wait in the mailbox already.
	late bool

	out    *chooser.LineWriter
	ch     *chooser.Chosen
	rt     *runTools
	pr     *printer
	notify *notifier
	loop   *agentloop.Loop
}

// setup chooses the frontend and builds the loop and the printer.
func (r *runner) setup(ctx context.Context, stdinUsed bool) error {
	out := r.f.IOStreams.Out
	if r.o.format == outText {
		out = r.f.IOStreams.TextOut() // model text, for a person: sanitised (JSON lines pass unchanged)
	}
	r.out = chooser.NewLineWriter(out)
	o := r.o
	o.frontendSpec.Place.Session, o.frontendSpec.Place.Title = string(r.sess.Meta.ID), r.sess.Summary().Title
	ch, err := runFrontend(ctx, o, r.f, stdinUsed, frontend.StdioConfig{In: r.f.IOStreams.In, Out: r.out, Via: "stdin", SessionID: string(r.sess.Meta.ID),
		Expected: r.sess.State.PendingQuestions()}) // a resumed run asks these again, in no fixed order
	if err != nil {
		return err
	}
	r.ch = ch
	fallback := ask.Frontend(frontend.Auto{Reason: ask.TimeoutReason(r.o.askTimeout)})
	if ch.Rel != nil || r.late {
		// Answers may come from elsewhere: a late one waits in the
		// mailbox, and a set is answered once, by whoever is first.
		if ch.Rel == nil {
			ch.FE = channelwire.Mailboxed(ch.FE, r.store, string(r.sess.Meta.ID), r.f.IOStreams.ErrOut)
		}
		fallback = channelwire.Mailboxed(fallback, r.store, string(r.sess.Meta.ID), r.f.IOStreams.ErrOut)
	}
	if r.o.frontendSpec.Verbose {
		fmt.Fprintf(r.f.IOStreams.ErrOut, "askuser: session %s, model %s, asking through %s: %s\n", r.sess.Meta.ID, describeProvider(r.prov), ch.Name, ch.Why)
	}
	r.notify = &notifier{cmd: r.o.notifyCmd, sessionID: string(r.sess.Meta.ID), errOut: r.f.IOStreams.ErrOut, url: ch.URL, stateDir: r.store.Dir}
	w := &watched{inner: ch.FE, waitsForSomeone: ch.WaitsForSomeone(), notify: r.notify, lastInput: time.Now()}
	if ch.Name == chooser.Survey && r.o.bell != "never" && ch.TTY != nil {
		w.bell = ch.TTY
		if r.o.bell == "auto" {
			w.bellAfter = bellAfter
		}
	}
	if r.rt, err = r.buildTools(ctx, ch.Rules); err != nil {
		ch.Close()
		return err
	}
	r.pr = &printer{format: r.o.format, out: r.out, errOut: r.f.IOStreams.ErrOut, sessionID: string(r.sess.Meta.ID), model: r.prov.Model(), tools: r.rt.reg.Names(),
		stream: !r.o.print && r.o.format == outText, stdioQuestions: ch.Stdio != nil && r.o.protocolOut == nil, surveySummary: ch.Name == chooser.Survey,
		cost: newCostMeter(r.prov, r.sub)}
	r.pr.watchTerminal(r.f.IOStreams, r.o)
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
	r.ch.Close()
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
		return cmdutil.WithCode(code, cmdutil.Quiet{Err: fmt.Errorf("waiting for an answer: %s", out.Reason)})
	case agentloop.StatusMaxTurns:
		return cmdutil.WithCode(code, fmt.Errorf("%s; to let it go on: askuser resume %s", out.Reason, r.sess.Meta.ID))
	case agentloop.StatusTimeout:
		return cmdutil.WithCode(code, fmt.Errorf("%s; the session is still %s: askuser resume %s", out.Reason, r.sess.Summary().StatusWords(), r.sess.Meta.ID))
	case agentloop.StatusCancelled:
		return cmdutil.WithCode(code, fmt.Errorf("cancelled; session %s can be resumed", r.sess.Meta.ID))
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
	users := r.ch.Stdio
	if users == nil {
		users = frontend.NewStdio(frontend.StdioConfig{In: r.f.IOStreams.In, Out: r.out, Via: "stdin", SessionID: string(r.sess.Meta.ID)})
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
