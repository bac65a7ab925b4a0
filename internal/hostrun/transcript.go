package hostrun

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

// keepTranscript keeps the host's transcript of s with the session in a
// team store (nothing in the files store: it is on this machine). A
// failure is said, not fatal: the session still continues here.
func keepTranscript(ctx context.Context, st *session.Store, sess *session.Session, h agenthost.Host, s agenthost.Session, env []string) {
	if !st.KeepsHostTranscripts() {
		return
	}
	err := func() error {
		t, err := h.Export(ctx, s, env)
		if err != nil {
			return err
		}
		data, err := packTranscript(t)
		if err != nil {
			return err
		}
		return st.PutHostTranscript(sess.Meta.ID, data)
	}()
	if err != nil {
		_ = sess.SetHost(session.HostRecord{State: sess.Host.State, Call: sess.Host.Call,
			Detail: "the host's transcript is not in the team store, so the session continues only on " + sess.Meta.Machine + ": " + err.Error()})
	}
}

// packTranscript is t as the store keeps it: JSON, gzip-compressed.
func packTranscript(t agenthost.Transcript) ([]byte, error) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if err := json.NewEncoder(zw).Encode(t); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unpackTranscript reads what packTranscript made, reading at most limit
// bytes of JSON.
func unpackTranscript(data []byte, limit int64) (agenthost.Transcript, error) {
	var t agenthost.Transcript
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return t, fmt.Errorf("read the host transcript kept in the store: %w", err)
	}
	if err := json.NewDecoder(io.LimitReader(zr, limit)).Decode(&t); err != nil {
		return t, fmt.Errorf("read the host transcript kept in the store: %w", err)
	}
	return t, nil
}
