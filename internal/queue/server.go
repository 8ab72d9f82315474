package queue

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded NATS server with JetStream.
type ServerOptions struct {
	// Listen is host:port for clients; port 0 picks a free one. The host
	// defaults to 127.0.0.1: the server listens on loopback unless told
	// otherwise.
	Listen string
	// StoreDir holds JetStream's files.
	StoreDir string
	// User and Password are required of every client (both empty: no
	// authentication, allowed on loopback only).
	User, Password string
	// Cluster, when set, is host:port for routes to other servers of a
	// JetStream cluster named ClusterName, whose route URLs are Routes
	// (nats-route://host:port). ServerName names this server in it.
	Cluster, ClusterName, ServerName string
	Routes                           []string
	// MaxStore bounds JetStream's files on disk (0: the server's default,
	// most of the free disk).
	MaxStore int64
	// Ephemeral skips syncing every write: for a server whose files do
	// not outlive the process that started it (rewind tournament's own,
	// whose results are kept, synced, in the tournament's folder).
	Ephemeral bool
}

// StartServer starts an embedded NATS server with JetStream that, unless
// Ephemeral, syncs every write to disk before acknowledging it
// (JetStream's default is a sync every two minutes, which can lose
// acknowledged messages on a power cut), and waits until it accepts
// clients.
func StartServer(o ServerOptions) (*server.Server, error) {
	host, port, err := splitListen(o.Listen)
	if err != nil {
		return nil, err
	}
	if o.User == "" && o.Password == "" && !isLoopback(host) {
		return nil, fmt.Errorf("queue: refusing to listen on %s without a user and password", host)
	}
	opts := &server.Options{
		ServerName:            o.ServerName,
		Host:                  host,
		Port:                  port,
		JetStream:             true,
		StoreDir:              o.StoreDir,
		SyncAlways:            !o.Ephemeral,
		JetStreamMaxStore:     o.MaxStore,
		NoSigs:                true,
		NoLog:                 true,
		MaxPayload:            8 << 20,
		MaxPending:            64 << 20,
		WriteDeadline:         10 * time.Second,
		MaxConn:               1024,
		Username:              o.User,
		Password:              o.Password,
		DisableShortFirstPing: true,
	}
	if o.Cluster != "" {
		ch, cp, err := splitListen(o.Cluster)
		if err != nil {
			return nil, err
		}
		opts.Cluster = server.ClusterOpts{Name: o.ClusterName, Host: ch, Port: cp}
		for _, r := range o.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return nil, fmt.Errorf("queue: route %q: %w", r, err)
			}
			opts.Routes = append(opts.Routes, u)
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("queue: nats server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(time.Minute) {
		s.Shutdown()
		return nil, errors.New("queue: the nats server did not start accepting clients")
	}
	return s, nil
}

func splitListen(addr string) (string, int, error) {
	if addr == "" {
		return "127.0.0.1", -1, nil
	}
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("queue: listen address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("queue: listen address %q: bad port", addr)
	}
	if port == 0 {
		port = -1 // the server's "pick a free port"
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return host, port, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
