package main

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkWhatsAppStalledWebhooks measures what 400 connections to
// askuser serve's WhatsApp webhook cost it when each sends a signature
// header of the right shape and a 1 MiB body but its last byte, then goes
// silent (what anyone who can reach the port can do): serve's peak
// resident memory (VmHWM) after they stalled, against the same serve's
// idle peak measured first in the same run:
//
//	idle-MiB     serve's peak RSS, started and idle
//	stalled-MiB  its peak RSS once the 400 stalled
//	x-idle       stalled-MiB over idle-MiB
//
//	go test -run '^$' -bench WhatsAppStalledWebhooks -benchtime 1x .
func BenchmarkWhatsAppStalledWebhooks(b *testing.B) {
	for range b.N {
		w := newWARig(b)
		p := w.serve(b)
		time.Sleep(500 * time.Millisecond)
		idle := peakMiB(b, p.cmd.Process.Pid)
		addr := strings.TrimPrefix(strings.TrimSuffix(w.fake.Webhook, "/channels/whatsapp"), "http://")
		var conns []net.Conn
		for range 400 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, c)
			go func() {
				head := "POST /channels/whatsapp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: 1048576\r\nX-Hub-Signature-256: sha256=" +
					strings.Repeat("0", 64) + "\r\n\r\n"
				_, _ = c.Write([]byte(head + strings.Repeat(" ", 1<<20-1)))
			}()
		}
		time.Sleep(3 * time.Second)
		stalled := peakMiB(b, p.cmd.Process.Pid)
		for _, c := range conns {
			c.Close()
		}
		b.ReportMetric(idle, "idle-MiB")
		b.ReportMetric(stalled, "stalled-MiB")
		b.ReportMetric(stalled/idle, "x-idle")
	}
}

// peakMiB is process pid's peak resident memory, in MiB.
func peakMiB(b *testing.B, pid int) float64 {
	b.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
