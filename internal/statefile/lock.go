package statefile

import "errors"

// ErrLocked is TryLock's error while another process holds the lock.
var ErrLocked = errors.New("locked by another process")
