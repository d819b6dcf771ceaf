// SPDX-License-Identifier: GPL-2.0-only

// A static file server written with Go's net/http and nothing else, for
// ktls_go_server.sh: built with CGO_ENABLED=0, so every socket call is
// Go's own raw syscall (non-blocking sockets, epoll), not libc's.  It
// knows nothing of TLS; the ktls tool arms its listener from outside.
//
// usage: ktls_go_server --port PORT --dir DIR
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
)

func main() {
	port := flag.Int("port", 0, "TCP port on 127.0.0.1")
	dir := flag.String("dir", ".", "directory to serve")
	flag.Parse()

	ln, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		log.Fatal(err)
	}
	// The test waits for this line before it arms the listener.
	fmt.Println("listening")
	os.Stdout.Sync()

	files := http.FileServer(http.Dir(*dir))
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s %s", r.Method, r.URL.Path, r.Proto)
		files.ServeHTTP(w, r)
	})
	// Anything the server finds wrong with a connection (a read error,
	// a request it cannot parse) goes to stderr, which the test reads.
	srv := &http.Server{Handler: logged, ErrorLog: log.New(os.Stderr, "http: ", 0)}
	log.Fatal(srv.Serve(ln))
}
