// A stand-alone Go pstest server for the benches: the same --host-port flag and ready line as
// ours, so bench/run.ts and bench/startup can start it as another --server.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"cloud.google.com/go/pubsub/v2/pstest"
)

func main() {
	hostPort := flag.String("host-port", "127.0.0.1:0", "address to listen on")
	flag.String("log-level", "", "ignored")
	flag.Parse()
	srv := pstest.NewServerWithAddress(*hostPort)
	_, port, _ := net.SplitHostPort(srv.Addr)
	fmt.Printf("[pubsub] INFO: Server started, listening on %s\n", strings.TrimSpace(port))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	srv.Close()
}
