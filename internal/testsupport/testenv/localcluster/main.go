package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

func main() {
	kubeconfig := flag.String("write-kubeconfig", "kubeconfig", "where to write the admin kubeconfig")
	flag.Parse()
	c, err := testenv.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "localcluster:", err)
		os.Exit(1)
	}
	defer c.Stop()
	data, err := os.ReadFile(c.KubeconfigPath)
	if err == nil {
		err = os.WriteFile(*kubeconfig, data, 0o600)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "localcluster:", err)
		return
	}
	fmt.Printf("localcluster: API server %s is ready with the Karpenter CRDs; kubeconfig in %s\n", c.Config.Host, *kubeconfig)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	<-ch
}
