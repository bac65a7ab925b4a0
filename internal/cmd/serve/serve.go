// Package serve is askuser serve: the inbox of every session waiting on a
// question or an approval, answered from a browser, and the chat channels
// whose destination is set. An answer given there goes to the set's
// mailbox; a run waiting on it takes it, else the session is resumed in
// the background (relay.go). One serve holds a state directory at a time
// (lock.go); its page's token is kept in a file of the user's own
// (token.go), and its address is left for runs' links (address.go).
package serve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/inbox"
)

// Options are askuser serve's flags and arguments.
type Options struct {
	Factory   *cmdutil.Factory
	Context   context.Context
	Store     cmdutil.StoreFlags
	Listen    string
	TokenFile string
	NewToken  bool
	// Channels are the channels' flags, by name.
	Channels map[string]string
	Args     []string
}

// NewCmdServe is askuser serve. runF, when not nil, is called with the
// options instead of serving (a test's).
func NewCmdServe(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
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
			cmdutil.StateDirFlag(), cmdutil.StoreFlag(),
		}, channelwire.Flags()...),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Store: cmdutil.ReadStoreFlags(c), Listen: c.String("listen"),
				TokenFile: c.String("token-file"), NewToken: c.Bool("new-token"), Channels: channelwire.ReadFlags(c), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return serveRun(opts)
		},
	}
}

func serveRun(opts *Options) error {
	f, ios := opts.Factory, opts.Factory.IOStreams
	if len(opts.Args) > 0 {
		return cmdutil.UsageErrorf("serve takes no arguments, got %s; the state directory is --state-dir DIR", ask.Excerpt(opts.Args[0]))
	}
	store, err := f.Store(opts.Store)
	if err != nil {
		return err
	}
	// A directory that does not exist yet is served empty; one that
	// cannot be (a name too long, a file in the way) is said now.
	if _, err := os.Stat(store.Dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("state directory: %w", err))
	}
	lock, err := holdServe(store.Dir)
	if err != nil {
		return err
	}
	defer lock.release()
	served, err := configuredChannels(f, opts.Channels)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("serve: find askuser's own binary to resume sessions with: %w", err)
	}
	tokenFile := opts.TokenFile
	if tokenFile == "" {
		tokenFile = filepath.Join(store.Dir, serveTokenFile)
	}
	token, err := serveToken(tokenFile, opts.NewToken)
	if err != nil {
		return fmt.Errorf("serve: the page's token: %w", err)
	}
	storeURL, _ := f.FlagOrEnv(opts.Store.Store, "store", cmdutil.StoreEnv)
	in, err := inbox.NewInbox(inbox.InboxConfig{Store: store, Answers: inboxAnswers{store}, Resume: resumeCommandFor(exe, store.Dir, storeURL),
		DescribeExit: cmdutil.DescribeExit, Log: ios.ErrOut, Machine: f.Machine()}, inbox.Options{Listen: opts.Listen, Warn: ios.ErrOut, Token: token, Open: webhooks(served)})
	if errors.Is(err, inbox.ErrListenAddress) {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("--listen: %w", err))
	} else if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	// The address is left before it is printed: whoever starts a run once
	// serve printed it finds it (a run's notification links to its page).
	lock.serving(in.URL())
	forget := leaveAddress(store.Dir, in.URL(), ios.ErrOut)
	defer forget()
	fmt.Fprintf(ios.ErrOut, "askuser: inbox of %s at %s\n", store.Dir, in.URL())
	stopRelay := serveRelay(store, in, served, ios.ErrOut)
	<-opts.Context.Done()
	stopRelay()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = in.Close(ctx)
	if ids := in.Resuming(); len(ids) > 0 {
		fmt.Fprintf(ios.ErrOut, "askuser: stopped serving; still resuming in the background: %s (see sessions/ID.d/serve.log)\n", strings.Join(ids, ", "))
	} else {
		fmt.Fprintln(ios.ErrOut, "askuser: stopped serving")
	}
	return nil
}
