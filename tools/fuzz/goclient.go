// SPDX-License-Identifier: GPL-2.0-only
//
// A TLS client of Go's crypto/tls, for capture.py: its ClientHello is a
// seed of the handshake fuzzer.  Built and run by seeds.sh only where Go
// is installed.
//
//	goclient HOST:PORT [tls12]
//
// Go's own curve preferences, which since Go 1.24 put X25519MLKEM768
// first with its 1216-byte share: the hybrid key exchange's seed.  Built
// outside a module, the program would get the defaults of an older
// language version, without it; the directive keeps it on.

//go:debug tlsmlkem=1
package main

import (
	"crypto/tls"
	"os"
)

func main() {
	cfg := &tls.Config{
		ServerName:         "a.example",
		InsecureSkipVerify: true,
		NextProtos:         []string{"h2", "http/1.1"},
		ClientSessionCache: tls.NewLRUClientSessionCache(1),
	}
	if len(os.Args) > 2 && os.Args[2] == "tls12" {
		cfg.MaxVersion = tls.VersionTLS12
	}
	conn, err := tls.Dial("tcp", os.Args[1], cfg)
	if err != nil {
		os.Exit(1)
	}
	conn.Close()
}
