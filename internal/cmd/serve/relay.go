package serve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// configuredChannels builds every chat channel whose destination is set:
// askuser serve holds them all. One set up halfway, or not built in, is a
// usage error naming what to set.
func configuredChannels(f *cmdutil.Factory, flags map[string]string) ([]relay.Served, error) {
	src, err := channelwire.Sources(f, flags)
	if err != nil {
		return nil, err
	}
	var served []relay.Served
	for _, spec := range channel.Specs() {
		if !spec.Configured(src) {
			continue
		}
		if spec.New == nil {
			return nil, cmdutil.UsageErrorf("%s is set, but %v; unset it, or use an askuser that has it", spec.Dest.Env, spec.NotLinked())
		}
		s, err := channelwire.Build(spec.Name, src)
		if err != nil {
			return nil, err
		}
		served = append(served, s)
	}
	return served, nil
}

// webhooks are the handlers of the channels a platform calls (WhatsApp),
// served at /channels/NAME outside the inbox's token.
func webhooks(served []relay.Served) map[string]http.Handler {
	out := map[string]http.Handler{}
	for _, s := range served {
		if w, ok := s.Channel.(channel.Webhook); ok {
			out["/channels/"+s.Channel.Name()] = w.Handler()
		}
	}
	return out
}

// serveRelay is askuser serve's relay: it holds the configured channels
// (taking each over from a live run that holds it, when that run ends),
// sends the sets registered for them and for the inbox, and resumes a
// session in the background when its set is answered in a chat while no
// process waits on it. It returns what stops it.
func serveRelay(store *session.Store, in *inbox.Inbox, served []relay.Served, errOut io.Writer) func() {
	var names []string
	for _, s := range served {
		names = append(names, s.Channel.Name())
	}
	if len(names) > 0 {
		fmt.Fprintf(errOut, "askuser: serving chat channels: %s\n", strings.Join(names, ", "))
	}
	r := relay.New(relay.Config{Mailbox: store.Mailbox(), Registry: store.Registry(), Deliveries: store.Deliveries(), Sessions: store, Channels: served,
		Hold: store.HoldChannel, WaitForHold: true, Inbox: true, Log: errOut, Resuming: in.IsResuming,
		Link: func(e session.Entry) string { return channelwire.SetLink(store.Dir, e) },
		Resume: func(x session.Entry) error {
			id, err := session.ParseID(x.Session) // checked when read; a resume takes only an ID
			if err != nil {
				return err
			}
			return in.Resume(id, "an answer given in "+strings.Join(x.Channels, ", ")+" by "+ask.Display(x.Outcome.By),
				"--frontend", strings.Join(x.Channels, ","), "--"+channelwire.FlagRelayDefer, "--"+channelwire.FlagRelayThread, x.Key)
		}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// inboxAnswers is the inbox's way to the answer mailbox: the relay's keys
// over the store's mailbox and registry.
type inboxAnswers struct{ st *session.Store }

func (a inboxAnswers) box(id string, w session.Waiting) session.Box {
	return session.Box{Session: id, Key: relay.Key(id, w.ID, w.AskedAt)}
}

func (a inboxAnswers) Post(id string, w session.Waiting, d session.Delivery) error {
	return a.st.Mailbox().Post(context.Background(), a.box(id, w), d)
}

func (a inboxAnswers) Get(id string, w session.Waiting) (session.Delivery, bool) {
	d, ok, err := a.st.Mailbox().Get(context.Background(), a.box(id, w))
	return d, ok && err == nil
}

// Live: the set is registered for the inbox, waits, and a process holds
// its session: a run asking through --frontend inbox, which takes the
// answer from the mailbox.
func (a inboxAnswers) Live(id string, w session.Waiting) bool {
	e, err := a.st.Registry().Get(context.Background(), a.box(id, w).Key)
	return err == nil && e.Pending() && slices.Contains(e.Channels, channelwire.Inbox) && a.st.InUse(id)
}

// resumeCommandFor is how serve resumes a session in the background: this
// binary's askuser resume, which takes the answers waiting in the
// session's mailbox; args say how it asks the rest (--relay-defer: it
// registers them for serve to send, and stops to wait). It writes
// stream-json, so the page can tell each step in words (an answer taken,
// a tool call, how the run went on) rather than show a log meant for a
// terminal. The environment's frontend settings are dropped, since the
// flags say how to ask, and so is ASKUSER_NOTIFY_CMD: serve shows and
// sends new questions itself. The id is a session.ID, made by ParseID,
// and still goes last, after "--", so nothing in it is ever a flag. The
// team store, if any (storeURL), is passed in ASKUSER_STORE: a flag would
// show its password in the process list.
func resumeCommandFor(exe, stateDir, storeURL string) func(id session.ID, args ...string) *exec.Cmd {
	return func(id session.ID, args ...string) *exec.Cmd {
		argv := append([]string{"resume", "--print", "--output-format", "stream-json", "--state-dir", stateDir}, args...)
		cmd := exec.Command(exe, append(argv, "--", string(id))...)
		for _, kv := range os.Environ() {
			switch name, _, _ := strings.Cut(kv, "="); name {
			case "ASKUSER_NOTIFY_CMD", "ASKUSER_FRONTEND", "ASKUSER_ANSWERS", "ASKUSER_ON_UNANSWERED", cmdutil.StoreEnv:
			default:
				cmd.Env = append(cmd.Env, kv)
			}
		}
		if storeURL != "" {
			cmd.Env = append(cmd.Env, cmdutil.StoreEnv+"="+storeURL)
		}
		return cmd
	}
}
