// SPDX-License-Identifier: GPL-2.0-only

// Command mlkem_go is the other side of tools/crypto's ML-KEM-768 tests:
// Go's standard library crypto/mlkem, driven over a pipe.
//
//	mlkem_go oracle          answer requests on stdin, one per line
//	mlkem_go bench OP SECS   print OP/s of Go's ML-KEM-768 (keygen,
//	                         encaps, decaps) over SECS of CPU time
//
// The oracle reads lines of hex words and answers each with one line:
//
//	K seed      -> ek          key pair from the 64-byte seed d || z
//	E ek        -> ct K | ERR  encapsulate to a 1184-byte key
//	D seed ct   -> K | ERR     decapsulate with the key pair of seed
//
// The bench measures this thread's CPU time, as tools/crypto/bench_mlkem.c
// does for ours, so load elsewhere on a shared host skews both alike.
package main

import (
	"bufio"
	"crypto/mlkem"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

func oracle() error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<16)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		args := make([][]byte, len(words)-1)
		for i, w := range words[1:] {
			b, err := hex.DecodeString(w)
			if err != nil {
				return err
			}
			args[i] = b
		}
		reply, err := answer(words[0], args)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, reply)
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

func answer(op string, args [][]byte) (string, error) {
	switch {
	case op == "K" && len(args) == 1:
		dk, err := mlkem.NewDecapsulationKey768(args[0])
		if err != nil {
			return "ERR", nil
		}
		return hex.EncodeToString(dk.EncapsulationKey().Bytes()), nil
	case op == "E" && len(args) == 1:
		ek, err := mlkem.NewEncapsulationKey768(args[0])
		if err != nil {
			return "ERR", nil
		}
		k, ct := ek.Encapsulate()
		return hex.EncodeToString(ct) + " " + hex.EncodeToString(k), nil
	case op == "D" && len(args) == 2:
		dk, err := mlkem.NewDecapsulationKey768(args[0])
		if err != nil {
			return "ERR", nil
		}
		k, err := dk.Decapsulate(args[1])
		if err != nil {
			return "ERR", nil
		}
		return hex.EncodeToString(k), nil
	}
	return "", fmt.Errorf("bad request %q with %d arguments", op, len(args))
}

// thread CPU time in seconds; the goroutine is locked to its thread
func cpuTime() float64 {
	var ru syscall.Rusage

	// RUSAGE_THREAD
	if err := syscall.Getrusage(1, &ru); err != nil {
		panic(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func bench(op string, secs float64) error {
	runtime.LockOSThread()
	seed := make([]byte, mlkem.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	dk, err := mlkem.NewDecapsulationKey768(seed)
	if err != nil {
		return err
	}
	ek := dk.EncapsulationKey()
	_, ct := ek.Encapsulate()

	var fn func()
	switch op {
	case "keygen":
		fn = func() {
			if _, err := mlkem.GenerateKey768(); err != nil {
				panic(err)
			}
		}
	case "encaps":
		// as the TLS server does: parse the peer's key, then encapsulate
		b := ek.Bytes()
		fn = func() {
			k, err := mlkem.NewEncapsulationKey768(b)
			if err != nil {
				panic(err)
			}
			k.Encapsulate()
		}
	case "decaps":
		fn = func() {
			if _, err := dk.Decapsulate(ct); err != nil {
				panic(err)
			}
		}
	default:
		return fmt.Errorf("unknown operation %q", op)
	}
	for i := 0; i < 16; i++ {
		fn()
	}
	n := 0
	start := cpuTime()
	t := 0.0
	for t < secs {
		for i := 0; i < 8; i++ {
			fn()
		}
		n += 8
		t = cpuTime() - start
	}
	fmt.Printf("%.0f\n", float64(n)/t)
	return nil
}

func main() {
	var err error

	switch {
	case len(os.Args) == 2 && os.Args[1] == "oracle":
		err = oracle()
	case len(os.Args) == 4 && os.Args[1] == "bench":
		var secs float64

		secs, err = strconv.ParseFloat(os.Args[3], 64)
		if err == nil {
			err = bench(os.Args[2], secs)
		}
	default:
		err = fmt.Errorf("usage: mlkem_go oracle | bench keygen|encaps|decaps SECONDS")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mlkem_go:", err)
		os.Exit(1)
	}
}
