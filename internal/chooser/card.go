package chooser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/inbox"
)

// StartCard serves the web question card (--frontend web) and says where,
// on errOut: the URL carries the token, so it goes to the person, never
// to standard output, which may be a program's.
func StartCard(listen string, errOut io.Writer) (*inbox.Broker, *inbox.Server, error) {
	b := inbox.NewBroker()
	srv, err := inbox.NewCard(b, inbox.Options{Listen: listen, Warn: errOut})
	if errors.Is(err, inbox.ErrListenAddress) {
		return nil, nil, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("--listen: %w", err))
	} else if err != nil {
		return nil, nil, fmt.Errorf("--frontend web: %w", err)
	}
	fmt.Fprintf(errOut, "askuser: answer in a browser: %s\n", srv.URL())
	return b, srv, nil
}

// CloseCard stops the card's server, letting an answer's own request
// finish first, so the page shows it answered.
func CloseCard(srv *inbox.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = srv.Close(ctx)
}
