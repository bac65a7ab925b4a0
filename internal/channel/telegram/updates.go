package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/internal/channel"
)

// The long poll, and the updates it cannot take. An update that cannot be
// read (JSON of another shape, or so large that the answer holding it is
// over maxUpdatesBytes) is skipped, by its update_id, and said in serve's
// log: never asked for again and again while the updates behind it (the
// person's next answer) wait.

// allowedUpdates are the updates the channel reads: presses and replies.
var allowedUpdates = []string{"message", "callback_query"}

// maxUpdatesBytes bounds one getUpdates answer (100 updates of a few KB
// each, as Telegram bounds a message at 4,096 characters).
const maxUpdatesBytes = 16 << 20

// errTooLarge: a getUpdates answer over the channel's bound.
var errTooLarge = errors.New("the answer is over the bound")

// polled is what one poll got: the updates, an unreadable one as its
// update_id alone, and what was skipped, for serve's log.
type polled struct {
	updates []models.Update
	skipped []string
}

// poll gets the updates from offset, waiting up to wait. An answer over
// the bound is asked for again one update at a time, and an update alone
// over it is skipped.
func (c *Channel) poll(ctx context.Context, offset int64, wait time.Duration) (polled, error) {
	p, err := c.getUpdates(ctx, offset, wait, 0)
	if !errors.Is(err, errTooLarge) {
		return p, err
	}
	p, err = c.getUpdates(ctx, offset, 0, 1)
	var big *tooLarge
	if !errors.As(err, &big) {
		return p, err
	}
	if big.id == 0 {
		return polled{}, &apiError{method: "getUpdates", text: fmt.Sprintf("an update over %s, whose update_id cannot be found, blocks the updates after it",
			kib(c.maxUpdates))}
	}
	return polled{updates: []models.Update{{ID: big.id}},
		skipped: []string{fmt.Sprintf("update %d is over %s: skipped", big.id, kib(c.maxUpdates))}}, nil
}

// tooLarge is an answer over the bound, with the update_id of its first
// update (0 when none was found).
type tooLarge struct{ id int64 }

func (e *tooLarge) Error() string   { return errTooLarge.Error() }
func (e *tooLarge) Is(t error) bool { return t == errTooLarge }

// getUpdates makes one long poll of up to wait (whole seconds; 0 returns
// at once), for at most limit updates (0: Telegram's 100). It is this
// package's own call, not the library's: the library confirms updates
// before they are handled and does not keep retry_after. A poll with no
// answer Grace after wait is abandoned.
func (c *Channel) getUpdates(ctx context.Context, offset int64, wait time.Duration, limit int) (polled, error) {
	const method = "getUpdates"
	params := map[string]any{"offset": offset, "timeout": int(wait / time.Second), "allowed_updates": allowedUpdates}
	if limit > 0 {
		params["limit"] = limit
	}
	body, _ := json.Marshal(params)
	pctx, cancel := context.WithTimeout(ctx, wait+c.t.Grace)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodPost, c.base+"/bot"+c.token+"/"+method, bytes.NewReader(body))
	if err != nil {
		return polled{}, &apiError{method: method, text: c.redact(err.Error())}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		text := c.redact(err.Error())
		if pctx.Err() != nil && ctx.Err() == nil {
			text = fmt.Sprintf("the long poll went silent: no answer within its timeout (%s) + %s; abandoned", wait, c.t.Grace)
		}
		return polled{}, &apiError{method: method, text: text}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxUpdates+1))
	switch {
	case err != nil:
		return polled{}, &apiError{method: method, code: resp.StatusCode, text: "reading the answer: " + c.redact(err.Error())}
	case int64(len(data)) > c.maxUpdates:
		// The update's id is found in what was read and the rest of the
		// answer, scanned as it comes and held nowhere.
		id, _ := firstUpdateID(io.MultiReader(bytes.NewReader(data), io.LimitReader(resp.Body, maxScanBytes)))
		return polled{}, &tooLarge{id: id}
	}
	return c.readUpdates(method, resp, data)
}

// readUpdates reads a getUpdates answer: its updates one by one, so one
// that does not read is skipped by its update_id and the rest are taken.
func (c *Channel) readUpdates(method string, resp *http.Response, data []byte) (polled, error) {
	var r struct {
		OK          bool              `json:"ok"`
		Result      []json.RawMessage `json:"result"`
		ErrorCode   int               `json:"error_code"`
		Description string            `json:"description"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		e := &apiError{method: method, code: resp.StatusCode,
			text: fmt.Sprintf("answered %s, not the Bot API's JSON: %s", resp.Status, channel.Cut(c.redact(string(data)), 200))}
		return polled{}, e.worded()
	}
	if !r.OK {
		e := &apiError{method: method, code: r.ErrorCode, text: c.redact(r.Description)}
		if r.ErrorCode == http.StatusTooManyRequests {
			e.retry = time.Duration(max(retryAfter(data), 1)) * time.Second
			e.until = c.gate.hold(method, e.retry)
		}
		return polled{}, e.worded()
	}
	var p polled
	for _, raw := range r.Result {
		var u models.Update
		err := json.Unmarshal(raw, &u)
		if err == nil {
			p.updates = append(p.updates, u)
			continue
		}
		var id struct {
			UpdateID int64 `json:"update_id"`
		}
		if json.Unmarshal(raw, &id) != nil || id.UpdateID == 0 {
			p.skipped = append(p.skipped, "an update without an update_id could not be read: skipped")
			continue
		}
		p.updates = append(p.updates, models.Update{ID: id.UpdateID})
		p.skipped = append(p.skipped, "update "+strconv.FormatInt(id.UpdateID, 10)+" could not be read ("+
			channel.Cut(c.redact(err.Error()), 120)+"): skipped")
	}
	return p, nil
}

// retryAfter reads parameters.retry_after from an error answer.
func retryAfter(data []byte) int {
	var r struct {
		Parameters struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	_ = json.Unmarshal(data, &r)
	return r.Parameters.RetryAfter
}

// kib words a bound of the updates read, which is in whole KiB or MiB (a
// channel does not reach for the state directory's helpers,
// internal/statefile).
func kib(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
