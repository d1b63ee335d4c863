package targets

import (
	"fmt"
	"net"
)

// FreePort returns a "127.0.0.1:port" address that was free a moment ago: it
// listens on port 0, takes the port and closes the listener. Another process
// may take the port before the caller binds it; use it only to tell a child
// process where to listen.
func FreePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("free port: %w", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		return "", fmt.Errorf("free port: %w", err)
	}
	return addr, nil
}

// baseURL returns the http base URL for a listen address. An empty or
// unspecified host (":8080", "0.0.0.0:8080") is reached on 127.0.0.1.
func baseURL(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", listen, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}
