// SPDX-License-Identifier: GPL-2.0-only

// A TLS client written with Go's crypto/tls, for hs_hybrid.sh: Go sends
// a post-quantum hybrid key share (X25519MLKEM768) first by default, as
// browsers do.  It fetches a path over HTTP/1.0 and prints what was
// negotiated, then the response:
//
//	version=1.3 group=X25519MLKEM768 hrr=false
//
// usage: ktls_go_client --addr HOST:PORT --ca CA.pem --name SERVERNAME
//
//	[--groups G,...] [--split N] [--path /hello]
//
// --groups sets CurvePreferences, by Go's names of the groups; Go keeps
// its own order of them, hybrids first, and sends a share of the first,
// with a hybrid also one of its ECDH part if that is listed.  Without
// it Go's defaults stand.  --split N writes every record in
// N-byte TCP segments a few milliseconds apart, so that the ClientHello
// reaches the server in pieces.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"
)

var groupNames = map[string]tls.CurveID{
	"X25519MLKEM768":    tls.X25519MLKEM768,
	"SecP256r1MLKEM768": tls.SecP256r1MLKEM768,
	"X25519":            tls.X25519,
	"P256":              tls.CurveP256,
	"P384":              tls.CurveP384,
}

// splitConn sends each Write in segments of n bytes (TCP_NODELAY is Go's
// default), pausing between them so that they are not coalesced.
type splitConn struct {
	net.Conn
	n int
}

func (c *splitConn) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		end := min(done+c.n, len(b))
		w, err := c.Conn.Write(b[done:end])
		done += w
		if err != nil {
			return done, err
		}
		time.Sleep(5 * time.Millisecond)
	}
	return done, nil
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", a...)
	os.Exit(1)
}

func main() {
	addr := flag.String("addr", "", "server HOST:PORT")
	ca := flag.String("ca", "", "CA certificate (PEM) to verify against")
	name := flag.String("name", "", "server name to send and verify")
	groups := flag.String("groups", "", "CurvePreferences, comma separated")
	split := flag.Int("split", 0, "write in segments of this many bytes")
	path := flag.String("path", "/hello", "path to GET")
	flag.Parse()

	pem, err := os.ReadFile(*ca)
	if err != nil {
		fail("%v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		fail("no certificate in %s", *ca)
	}
	cfg := &tls.Config{RootCAs: roots, ServerName: *name,
		MinVersion: tls.VersionTLS12}
	if *groups != "" {
		for _, g := range strings.Split(*groups, ",") {
			id, ok := groupNames[g]
			if !ok {
				fail("unknown group %q", g)
			}
			cfg.CurvePreferences = append(cfg.CurvePreferences, id)
		}
	}

	raw, err := net.DialTimeout("tcp", *addr, 10*time.Second)
	if err != nil {
		fail("%v", err)
	}
	raw.SetDeadline(time.Now().Add(20 * time.Second))
	var conn net.Conn = raw
	if *split > 0 {
		conn = &splitConn{raw, *split}
	}
	c := tls.Client(conn, cfg)
	if err := c.Handshake(); err != nil {
		fail("handshake: %v", err)
	}
	st := c.ConnectionState()
	version := "1.2"
	if st.Version == tls.VersionTLS13 {
		version = "1.3"
	}
	fmt.Printf("version=%s group=%s hrr=%t\n", version, st.CurveID,
		st.HelloRetryRequest)
	fmt.Fprintf(c, "GET %s HTTP/1.0\r\n\r\n", *path)
	if _, err := io.Copy(os.Stdout, c); err != nil {
		fail("read: %v", err)
	}
}
