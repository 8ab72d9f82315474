package protocol

import "net/http"

// Owns reports whether r is for a path of the protocol (whatever its
// method), so that another handler — the viewer — can share the address:
// requests Owns refuses go elsewhere, the rest to Handler.
func (s *Server) Owns(r *http.Request) bool {
	for _, m := range []string{r.Method, http.MethodGet, http.MethodPost} {
		probe := *r
		probe.Method = m
		if _, pattern := s.mux.Handler(&probe); pattern != "" {
			return true
		}
	}
	return false
}
