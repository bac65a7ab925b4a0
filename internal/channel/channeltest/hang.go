package channeltest

import "net/http"

// hang keeps a call to a path a test hung (Hang) unanswered.
func (s *Server) hang(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		up := s.hung[r.URL.Path]
		s.mu.Unlock()
		if up == nil {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case <-up:
			http.Error(w, `{"ok":false,"error":"service_unavailable"}`, http.StatusServiceUnavailable)
		case <-r.Context().Done():
		}
	})
}

// Hang makes calls of path ("/update", "/reply") change nothing and go
// unanswered, as a platform down without saying so, until Hang(path,
// false); the calls waiting then get 503.
func (s *Server) Hang(path string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch up := s.hung[path]; {
	case on && up == nil:
		s.hung[path] = make(chan struct{})
	case !on && up != nil:
		close(up)
		delete(s.hung, path)
	}
}
