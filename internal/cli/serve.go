package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the inbox: every session waiting on a question or an approval, answered from a browser",
		Description: `Serves a page, on 127.0.0.1 and a free port unless --listen says otherwise, listing
every session in the state directory that waits on a question or an approval (newest
first, with its prompt, how long it has waited and who waits), and the other sessions with
their transcripts. The URL, with its token, is printed on standard error; nobody without
the token can see or answer anything.

The token is kept in serve.token in the state directory (--token-file FILE to keep it
elsewhere), created readable by you alone, so the URL, and a bookmark of it, works again
after a restart; give --listen a fixed port too, since a free port changes. A token file
that others may read, that is not a regular file of yours, or that is a symbolic link is
refused. --new-token replaces the token: every URL and page opened before stops working.

An answer given on the page goes to the set's answer mailbox, as a person's. A run waiting
on the set through --frontend inbox takes it at once; otherwise the session is resumed in the
background (askuser resume ID -p --frontend inbox --output-format stream-json), which takes
it; its output is kept in sessions/ID.d/serve.log beside the session and told on the
session's page. Sets not answered yet stay pending. Each answer, and each resume started and
ended (with its exit code), is logged on standard error.

serve also holds every chat channel whose destination is set (ASKUSER_SLACK_CHANNEL,
ASKUSER_TELEGRAM_CHAT, ASKUSER_WHATSAPP_TO, or their flags): it sends the questions runs ask
through that channel or through --frontend inbox, and a tap on a question whose run stopped
to wait resumes the session in the background; what the agent did next is posted beside the
question. A live run that holds a channel keeps it; serve takes it over when the run ends.
One serve serves a state directory at a time (it holds serve.lock there); a second is
refused, naming the first one's pid and address. Ctrl+C stops serving; a resume under way
goes on by itself.`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "listen", Usage: "serve on `ADDR` (default 127.0.0.1 and a free port; another host is reachable by others, who still need the token)"},
			&cli.StringFlag{Name: "token-file", Usage: "keep the page's token in `FILE` (default serve.token in the state directory), so its URL works after a restart"},
			&cli.BoolFlag{Name: "new-token", Usage: "make a new token, replacing the kept one: URLs and pages opened before stop working"},
			stateDirFlag(), storeFlag(),
		}, channelFlags()...),
		Action: func(c *cli.Context) error { return runServe(c, e) },
	}
}

func runServe(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usageErrorf("serve takes no arguments, got %s; the state directory is --state-dir DIR", ask.Excerpt(c.Args().First()))
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	// A directory that does not exist yet is served empty; one that
	// cannot be (a name too long, a file in the way) is said now.
	if _, err := os.Stat(store.Dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return withCode(ExitUsage, fmt.Errorf("state directory: %w", err))
	}
	lock, err := holdServe(store.Dir)
	if err != nil {
		return err
	}
	defer lock.release()
	served, err := configuredChannels(c, e)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("serve: find askuser's own binary to resume sessions with: %w", err)
	}
	tokenFile := c.String("token-file")
	if tokenFile == "" {
		tokenFile = filepath.Join(store.Dir, serveTokenFile)
	}
	token, err := serveToken(tokenFile, c.Bool("new-token"))
	if err != nil {
		return fmt.Errorf("serve: the page's token: %w", err)
	}
	storeURL, _ := flagOrEnv(c, e, "store", storeEnv)
	in, err := inbox.NewInbox(inbox.InboxConfig{Store: store, Answers: inboxAnswers{store}, Resume: resumeCommandFor(exe, store.Dir, storeURL),
		DescribeExit: describeExit, Log: e.ios.ErrOut, Machine: machineName(e)}, inbox.Options{Listen: c.String("listen"), Warn: e.ios.ErrOut, Token: token, Open: webhooks(served)})
	if errors.Is(err, inbox.ErrListenAddress) {
		return withCode(ExitUsage, fmt.Errorf("--listen: %w", err))
	} else if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	// The address is left before it is printed: whoever starts a run once
	// serve printed it finds it (a run's notification links to its page).
	lock.serving(in.URL())
	forget := leaveAddress(store.Dir, in.URL(), e.ios.ErrOut)
	defer forget()
	fmt.Fprintf(e.ios.ErrOut, "askuser: inbox of %s at %s\n", store.Dir, in.URL())
	stopRelay := serveRelay(store, in, served, e.ios.ErrOut)
	<-c.Context.Done()
	stopRelay()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = in.Close(ctx)
	if ids := in.Resuming(); len(ids) > 0 {
		fmt.Fprintf(e.ios.ErrOut, "askuser: stopped serving; still resuming in the background: %s (see sessions/ID.d/serve.log)\n", strings.Join(ids, ", "))
	} else {
		fmt.Fprintln(e.ios.ErrOut, "askuser: stopped serving")
	}
	return nil
}

// configuredChannels builds every chat channel whose destination is set:
// askuser serve holds them all. One set up halfway, or not built in, is a
// usage error naming what to set.
func configuredChannels(c *cli.Context, e *env) ([]relay.Served, error) {
	src, err := channelSources(c, e)
	if err != nil {
		return nil, err
	}
	var served []relay.Served
	for _, spec := range channel.Specs() {
		if !spec.Configured(src) {
			continue
		}
		if spec.New == nil {
			return nil, usageErrorf("%s is set, but %v; unset it, or use an askuser that has it", spec.Dest.Env, spec.NotLinked())
		}
		s, err := buildChannel(spec.Name, src)
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
		Link: func(e session.Entry) string { return setLink(store.Dir, e) },
		Resume: func(x session.Entry) error {
			id, err := session.ParseID(x.Session) // checked when read; a resume takes only an ID
			if err != nil {
				return err
			}
			return in.Resume(id, "an answer given in "+strings.Join(x.Channels, ", ")+" by "+ask.Display(x.Outcome.By),
				"--frontend", strings.Join(x.Channels, ","), "--"+flagRelayDefer, "--"+flagRelayThread, x.Key)
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
	return err == nil && e.Pending() && slices.Contains(e.Channels, feInbox) && a.st.InUse(id)
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
		argv := append([]string{"resume", "--print", "--output-format", outStreamJSON, "--state-dir", stateDir}, args...)
		cmd := exec.Command(exe, append(argv, "--", string(id))...)
		for _, kv := range os.Environ() {
			switch name, _, _ := strings.Cut(kv, "="); name {
			case "ASKUSER_NOTIFY_CMD", "ASKUSER_FRONTEND", "ASKUSER_ANSWERS", "ASKUSER_ON_UNANSWERED", storeEnv:
			default:
				cmd.Env = append(cmd.Env, kv)
			}
		}
		if storeURL != "" {
			cmd.Env = append(cmd.Env, storeEnv+"="+storeURL)
		}
		return cmd
	}
}

// describeExit words a resume's exit code from the table, for the inbox's
// page and serve's log. A resume that stopped to wait is said as such:
// the table's "answer it with askuser resume" is not for a person whose
// page takes the answer.
func describeExit(code int) string {
	for _, x := range exitTable {
		if x.code == code {
			text := x.text
			if code == ExitWaiting {
				text = "the session stopped to wait for an answer"
			}
			return fmt.Sprintf("exit %d, %s: %s", code, x.name, text)
		}
	}
	return fmt.Sprintf("exit %d", code)
}

// serveURLFile is where askuser serve leaves its address, token included,
// in the state directory it serves: a run's --notify-cmd and the chat
// channels then link to the session's page (ASKUSER_INBOX_URL, without
// the token: inboxLink). It is the user's own (0600), like the sessions
// beside it, which the token guards no more than the file.
const serveURLFile = "serve.url"

// maxServeURLBytes bounds what is read of serve.url: an address and its
// token.
const maxServeURLBytes = 4 << 10

// leaveAddress writes the inbox's URL for runs to find, and returns what
// takes it away again: only while it is still this inbox's. It holds the
// token, so it is written as the token file is (replaceOwn): 0600, never
// through a link planted in its place. It is read through statefile: a
// FIFO there is never waited on.
func leaveAddress(stateDir, address string, errOut io.Writer) func() {
	path := filepath.Join(stateDir, serveURLFile)
	if err := replaceOwn(path, address+"\n"); err != nil {
		fmt.Fprintf(errOut, "askuser: could not leave the inbox's address for notifications (%v); they will not link to it\n", err)
		return func() {}
	}
	return func() {
		if b, err := statefile.ReadFile(path, maxServeURLBytes); err == nil && strings.TrimSpace(string(b)) == address {
			os.Remove(path)
		}
	}
}

// servedAt is the address askuser serve left in stateDir, token
// included, or nil when none serves it.
func servedAt(stateDir string) *url.URL {
	if stateDir == "" {
		return nil
	}
	b, err := statefile.ReadFile(filepath.Join(stateDir, serveURLFile), maxServeURLBytes)
	if err != nil {
		return nil
	}
	u, err := url.Parse(strings.TrimSpace(string(b)))
	if err != nil || u.Scheme != "http" || u.Query().Get("token") == "" {
		return nil
	}
	return u
}

// inboxURL is the page of session id in the askuser serve that serves
// stateDir, token included, or "" when none does: for this machine's own
// terminal only.
func inboxURL(stateDir, id string) string {
	if id == "" {
		return ""
	}
	u := servedAt(stateDir)
	if u == nil {
		return ""
	}
	u.Path = "/s/" + id
	return u.String()
}

// inboxLink is the page at path ("s/ID"; "" is the first page) of the
// askuser serve that serves stateDir, without its token, or "" when none
// serves it. Chat messages and notifications carry it: whatever they
// carry, a third party's servers (and everyone in the chat) see, and the
// token answers every question. A browser that opened serve's printed URL
// once holds the cookie that opens the page; another is told to open that
// URL first.
func inboxLink(stateDir, path string) string {
	u := servedAt(stateDir)
	if u == nil {
		return ""
	}
	u.Path, u.RawQuery = "/"+path, ""
	return u.String()
}

// setLink is the inbox page that shows registered set e: its session's,
// or, for a set asked outside a session (askuser ask, mcp, hook), its own.
func setLink(stateDir string, e session.Entry) string {
	if e.Session == "" {
		return inboxLink(stateDir, "q/"+e.Key)
	}
	return inboxLink(stateDir, "s/"+e.Session)
}
