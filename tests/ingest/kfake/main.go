// A Kafka-protocol broker for the import-topic tests: franz-go's kfake on a given port, optionally
// keeping its log in a directory (so a stopped broker comes back with its records) and asking for
// a SASL login (PLAIN or SCRAM). Prints "listening HOST:PORT" once it accepts connections; stops on SIGTERM/SIGINT.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/twmb/franz-go/pkg/kfake"
)

func main() {
	port := flag.Int("port", 0, "port to listen on (0: any free one)")
	dataDir := flag.String("data-dir", "", "keep the log here across restarts")
	sasl := flag.String("sasl", "", "MECHANISM:user:password (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512): require SASL with this superuser")
	var seeds multi
	flag.Var(&seeds, "topic", "name:partitions to create at start (repeatable)")
	flag.Parse()

	opts := []kfake.Opt{kfake.NumBrokers(1), kfake.Ports(*port)}
	if *dataDir != "" {
		opts = append(opts, kfake.DataDir(*dataDir))
	}
	if *sasl != "" {
		mech, rest, _ := strings.Cut(*sasl, ":")
		user, pass, _ := strings.Cut(rest, ":")
		opts = append(opts, kfake.EnableSASL(), kfake.Superuser(mech, user, pass))
	}
	for _, s := range seeds {
		name, n, _ := strings.Cut(s, ":")
		var parts int32 = 1
		fmt.Sscan(n, &parts)
		opts = append(opts, kfake.SeedTopics(parts, name))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("listening", c.ListenAddrs()[0])
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	c.Close()
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }
