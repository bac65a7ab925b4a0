package ask

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// TimeoutReason is what an answer or an error says when nobody answered
// within d.
func TimeoutReason(d time.Duration) string {
	return fmt.Sprintf("no person answered within %s", d)
}

// AskWithin puts req to fe, bounding the wait by d (0: no bound). When d
// passes with nobody answering, policy decides: PolicyAuto asks fallback,
// which must mark its answers as a policy's (it is not bounded by d);
// PolicySuspend returns an error wrapping ErrDeferred; PolicyError (and
// auto without a fallback) one wrapping ErrTimeout. Both errors say
// TimeoutReason(d) and name the --on-timeout policy. Every other outcome,
// including cancellation of ctx itself, is returned as fe gave it.
func AskWithin(ctx context.Context, fe Frontend, req Request, d time.Duration, policy Policy, fallback Frontend) ([]Answer, error) {
	if d <= 0 {
		return fe.Ask(ctx, req)
	}
	tctx, cancel := context.WithTimeoutCause(ctx, d, ErrTimeout)
	answers, err := fe.Ask(tctx, req)
	cancel()
	if err == nil || ctx.Err() != nil || !errors.Is(err, ErrTimeout) {
		return answers, err
	}
	switch {
	case policy == PolicyAuto && fallback != nil:
		return fallback.Ask(ctx, req)
	case policy == PolicySuspend:
		return nil, fmt.Errorf("%w: %s (--on-timeout suspend)", ErrDeferred, TimeoutReason(d))
	}
	return nil, fmt.Errorf("%w: %s (--on-timeout error)", ErrTimeout, TimeoutReason(d))
}
