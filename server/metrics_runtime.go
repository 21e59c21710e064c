package server

import (
	"fmt"
	"io"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var processStart = time.Now()

// writeRuntimeMetrics writes the Go runtime's and the process's metrics
// under the names Prometheus's own Go and process collectors use.
func writeRuntimeMetrics(w io.Writer) {
	p := func(name, typ, help string) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p("go_goroutines", "gauge", "Number of goroutines that currently exist.")
	fmt.Fprintf(w, "go_goroutines %d\n", runtime.NumGoroutine())
	p("go_info", "gauge", "Information about the Go environment.")
	fmt.Fprintf(w, "go_info{version=%q} 1\n", runtime.Version())
	p("go_memstats_alloc_bytes", "gauge", "Number of bytes allocated in heap and currently in use.")
	fmt.Fprintf(w, "go_memstats_alloc_bytes %d\n", ms.HeapAlloc)
	p("go_memstats_heap_inuse_bytes", "gauge", "Number of heap bytes in spans in use.")
	fmt.Fprintf(w, "go_memstats_heap_inuse_bytes %d\n", ms.HeapInuse)
	p("go_memstats_sys_bytes", "gauge", "Number of bytes obtained from the system.")
	fmt.Fprintf(w, "go_memstats_sys_bytes %d\n", ms.Sys)
	p("go_gc_cycles_total", "counter", "Completed GC cycles.")
	fmt.Fprintf(w, "go_gc_cycles_total %d\n", ms.NumGC)
	sample := []rtmetrics.Sample{{Name: "/sched/gomaxprocs:threads"}}
	rtmetrics.Read(sample)
	if sample[0].Value.Kind() == rtmetrics.KindUint64 {
		p("go_sched_gomaxprocs_threads", "gauge", "The current runtime.GOMAXPROCS setting.")
		fmt.Fprintf(w, "go_sched_gomaxprocs_threads %d\n", sample[0].Value.Uint64())
	}

	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		p("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.")
		fmt.Fprintf(w, "process_cpu_seconds_total %s\n", strconv.FormatFloat(cpu.Seconds(), 'f', 3, 64))
	}
	p("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.")
	fmt.Fprintf(w, "process_start_time_seconds %d\n", processStart.Unix())
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		p("process_open_fds", "gauge", "Number of open file descriptors.")
		fmt.Fprintf(w, "process_open_fds %d\n", len(ents))
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		p("process_max_fds", "gauge", "Maximum number of open file descriptors.")
		fmt.Fprintf(w, "process_max_fds %d\n", lim.Cur)
	}
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 2 {
			page := int64(os.Getpagesize())
			vm, _ := strconv.ParseInt(f[0], 10, 64)
			rss, _ := strconv.ParseInt(f[1], 10, 64)
			p("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.")
			fmt.Fprintf(w, "process_virtual_memory_bytes %d\n", vm*page)
			p("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
			fmt.Fprintf(w, "process_resident_memory_bytes %d\n", rss*page)
		}
	}
}
