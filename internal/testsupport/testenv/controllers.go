package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// controllerManager is a kube-controller-manager that runs only the controllers a test asks
// for, as the cluster's admin: no leader election (it is alone), no per-controller service
// accounts (the service account controllers do not run) and no serving port.
type controllerManager struct {
	cmd  *exec.Cmd
	done chan struct{}
	log  string
}

// startControllerManager starts kube-controller-manager from KUBEBUILDER_ASSETS with the
// given controllers (e.g. disruption-controller) against the cluster's kubeconfig.
func (c *Cluster) startControllerManager(assets string, controllers string) error {
	bin := filepath.Join(assets, "kube-controller-manager")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("test binary missing (scripts/testbins.sh builds it): %w", err)
	}
	logPath := filepath.Join(c.dir, "kube-controller-manager.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin,
		"--kubeconfig="+c.KubeconfigPath,
		"--controllers="+controllers,
		"--leader-elect=false",
		"--use-service-account-credentials=false",
		"--secure-port=0",
		// A corpus of hundreds of budgets is synced in seconds, not throttled at the default 20 QPS.
		"--kube-api-qps=500", "--kube-api-burst=1000",
		"--v=1")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("starting kube-controller-manager: %w", err)
	}
	m := &controllerManager{cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() { _ = cmd.Wait(); logFile.Close(); close(m.done) }()
	c.controllers = m
	return nil
}

// ControllerManagerLog is the output of the cluster's kube-controller-manager so far, for a
// test that fails to see the status it waits for.
func (c *Cluster) ControllerManagerLog() string {
	if c.controllers == nil {
		return ""
	}
	b, _ := os.ReadFile(c.controllers.log)
	return string(b)
}

// stop ends the controller manager: SIGTERM, then SIGKILL after five seconds.
func (m *controllerManager) stop() {
	if m == nil || m.cmd.Process == nil {
		return
	}
	_ = m.cmd.Process.Signal(os.Interrupt)
	select {
	case <-m.done:
	case <-time.After(5 * time.Second):
		_ = m.cmd.Process.Kill()
		<-m.done
	}
}
