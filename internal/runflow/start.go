package runflow

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// Start is what askuser run asks for (and askuser demo, with its scripted
// model): a new session, or a new prompt to one (--resume, --continue).
type Start struct {
	Flags Flags
	// Resume is --resume ID; ResumeSet says it was given, even empty.
	Resume    string
	ResumeSet bool
	// Continue is --continue: the most recent session here.
	Continue bool
	// Args are the prompt's words; none: standard input holds the prompt.
	Args []string
}

// Run runs s to its end: the agent loop of a new session or of the one
// named, asking through the frontend the flags choose.
func Run(ctx context.Context, f *cmdutil.Factory, s Start) error {
	o, err := Check(f, s.Flags)
	if err != nil {
		return err
	}
	if err := blankPrompt(s.Args); err != nil {
		return err
	}
	store, err := f.Store(s.Flags.Store)
	if err != nil {
		return err
	}
	var sess *session.Session
	if s.ResumeSet && s.Resume == "" {
		return cmdutil.UsageErrorf("--resume: the session id is empty; give one (askuser sessions lists them), or --continue for the most recent session here")
	}
	if id := s.Resume; id != "" || s.Continue {
		if id != "" && s.Continue {
			return cmdutil.UsageErrorf("give --resume ID or --continue, not both")
		}
		if id == "" {
			var said string
			if id, said, err = pickLatestHere(store, f.Machine()); err != nil {
				return err
			}
			fmt.Fprintln(f.IOStreams.ErrOut, said)
		}
		if sess, err = cmdutil.OpenSession(store, id); err != nil {
			return err
		}
		defer sess.Close()
		if len(sess.State.Pending()) > 0 {
			return cmdutil.UsageErrorf("session %s is %s; answer it first with askuser resume %s", sess.Meta.ID, sess.Summary().StatusWords(), sess.Meta.ID)
		}
		if sess.State.UnsentResults() {
			return cmdutil.UsageErrorf("session %s stopped before the answers to its questions reached the model; continue it first with askuser resume %s", sess.Meta.ID, sess.Meta.ID)
		}
		o.keepSystem(s.Flags, &sess.Meta)
	}
	var from *session.Meta
	if sess != nil {
		from = &sess.Meta
	}
	spec := readProviderSpec(s.Flags.Provider, from)
	prov, err := newProvider(ctx, spec, f)
	if err != nil {
		return err
	}
	sub, subModel, err := subProvider(ctx, f, s.Flags.SubagentModel, spec, from)
	if err != nil {
		return err
	}
	tools := readToolSpec(s.Flags.Tools, from)
	var prompt string
	stdinUsed := false
	if err := o.stdinFree(s.Args); err != nil {
		return err
	}
	if !o.streamInput {
		if prompt, stdinUsed, err = readPrompt(f, s.Args); err != nil {
			return err
		}
	}
	if sess == nil {
		meta := providerMeta(prov, spec)
		meta.System, meta.FirstPrompt, meta.SubagentModel = o.system, prompt, subModel
		tools.record(&meta)
		placeMeta(&meta, f)
		if sess, err = store.Create(meta); err != nil {
			return err
		}
		defer sess.Close()
	}
	r := &runner{f: f, o: o, sess: sess, prov: prov, sub: sub, tools: tools, store: store}
	if o.streamInput {
		return r.streamConversation(ctx)
	}
	return r.once(ctx, &agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: prompt}}}, stdinUsed)
}

// Resume continues session sess of store from where it stopped: the
// questions it waits on are asked again (their answers may wait in the
// mailbox already), and the loop goes on. The provider, sub-agents and
// tools are the flags', else what the session recorded. intro, if set,
// runs once the frontend is chosen, before the run.
func Resume(ctx context.Context, f *cmdutil.Factory, o Options, fl Flags, store *session.Store, sess *session.Session, intro func(*chooser.Chosen)) error {
	o.keepSystem(fl, &sess.Meta)
	spec := readProviderSpec(fl.Provider, &sess.Meta)
	prov, err := newProvider(ctx, spec, f)
	if err != nil {
		return err
	}
	sub, _, err := subProvider(ctx, f, fl.SubagentModel, spec, &sess.Meta)
	if err != nil {
		return err
	}
	r := &runner{f: f, o: o, sess: sess, prov: prov, sub: sub, tools: readToolSpec(fl.Tools, &sess.Meta), store: store, late: true, intro: intro}
	return r.once(ctx, nil, false)
}

// keepSystem keeps the system prompt a session was started with, unless
// the flags give one.
func (o *Options) keepSystem(fl Flags, m *session.Meta) {
	if !fl.SystemSet && m.System != "" {
		o.system = m.System
	}
}

// placeMeta records where a new session runs: this directory of this
// machine, where a late answer may resume it.
func placeMeta(m *session.Meta, f *cmdutil.Factory) {
	m.Cwd, _ = os.Getwd()
	m.Machine = f.Machine()
}

// pickLatestHere returns the most recently updated session of the current
// directory (damaged ones aside), and a line saying which it took.
func pickLatestHere(store *session.Store, machine string) (id, said string, err error) {
	here, list, err := cmdutil.ListHere(store)
	if err != nil {
		return "", "", err
	}
	for _, s := range list {
		if s.Err == "" && cmdutil.IsHere(s, here, machine) {
			return s.ID, fmt.Sprintf("askuser: continuing session %s, the most recent here (%s, %s): %s",
				s.ID, s.StatusWords(), cmdutil.Ago(time.Since(s.Updated)), ask.Display(s.Title)), nil
		}
	}
	why := fmt.Sprintf("--continue: no session was started in %s yet", here)
	if len(list) > 0 {
		why += "; askuser sessions lists those of other directories (and older ones, which recorded none), and askuser run --resume ID continues one"
	}
	return "", "", cmdutil.UsageErrorf("%s", why)
}
