package ask

import (
	"context"
	"errors"
	"testing"
	"time"
)

// blocking waits until its context ends, as a frontend nobody answers.
type blocking struct{}

func (blocking) Ask(ctx context.Context, req Request) ([]Answer, error) {
	<-ctx.Done()
	return nil, CtxErr(ctx)
}

// fixed answers at once with a policy answer.
type fixed struct{}

func (fixed) Ask(ctx context.Context, req Request) ([]Answer, error) {
	return []Answer{{Header: "H", Selected: []string{"A"}, Source: SourcePolicy, Reason: "fallback"}}, nil
}

func TestAskWithin(t *testing.T) {
	req := Request{ID: "q1"}
	for _, tc := range []struct {
		policy   Policy
		fallback Frontend
		wantErr  error
		wantMsg  string
	}{
		{PolicyAuto, fixed{}, nil, ""},
		{PolicySuspend, fixed{}, ErrDeferred, "answer deferred: no person answered within 10ms (--on-timeout suspend)"},
		{PolicyError, fixed{}, ErrTimeout, "no answer within the time allowed: no person answered within 10ms (--on-timeout error)"},
		{PolicyAuto, nil, ErrTimeout, "no answer within the time allowed: no person answered within 10ms (--on-timeout error)"},
	} {
		answers, err := AskWithin(context.Background(), blocking{}, req, 10*time.Millisecond, tc.policy, tc.fallback)
		if tc.wantErr == nil {
			if err != nil || len(answers) != 1 || answers[0].Reason != "fallback" {
				t.Errorf("%s: %v, %v; want the fallback's answer", tc.policy, answers, err)
			}
			continue
		}
		if !errors.Is(err, tc.wantErr) || err.Error() != tc.wantMsg {
			t.Errorf("%s (fallback %v): err %q, want %q wrapping %v", tc.policy, tc.fallback != nil, err, tc.wantMsg, tc.wantErr)
		}
	}
	// The caller's own cancellation is not a timeout, whatever the policy.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AskWithin(ctx, blocking{}, req, time.Hour, PolicyAuto, fixed{}); !errors.Is(err, ErrCancelled) {
		t.Errorf("cancelled context: err %v, want ErrCancelled", err)
	}
	// No bound: the frontend's answer as it is.
	if a, err := AskWithin(context.Background(), fixed{}, req, 0, PolicyError, nil); err != nil || len(a) != 1 {
		t.Errorf("no bound: %v, %v", a, err)
	}
}
