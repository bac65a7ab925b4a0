package frontend

import (
	"bufio"
	"context"
	"io"
	"testing"
)

// benchAnswer answers dbSet("q1") the way a program would.
const benchAnswer = `{"id":"q1","answers":{"Database":"SQLite","Features":"TypeScript, Tailwind CSS","Region":"eu-west"}}` + "\n"

// playProgram reads question lines from out and answers each with
// benchAnswer on in, until a pipe closes.
func playProgram(out io.Reader, in io.Writer) {
	br := bufio.NewReader(out)
	for {
		if _, err := br.ReadSlice('\n'); err != nil {
			return
		}
		if _, err := io.WriteString(in, benchAnswer); err != nil {
			return
		}
	}
}

// BenchmarkStdioRoundTrip puts a three-question set to a program over
// in-memory pipes and reads its answer line, through one Stdio.
func BenchmarkStdioRoundTrip(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	defer outR.Close()
	go playProgram(outR, inW)
	s := NewStdio(StdioConfig{In: inR, Out: outW, Via: "stdin"})
	req := dbSet("q1")
	ctx := context.Background()
	n := 0
	for b.Loop() {
		answers, err := s.Ask(ctx, req)
		if err != nil || len(answers) != 3 || answers[1].Selected[1] != "Tailwind CSS" {
			b.Fatalf("Ask: %v %+v", err, answers)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "roundtrips/s")
}

// BenchmarkPipeEchoBaseline moves the same bytes over the same kind of
// pipes with no frontend: the floor BenchmarkStdioRoundTrip is compared
// against.
func BenchmarkPipeEchoBaseline(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	defer outR.Close()
	go playProgram(outR, inW)
	question, err := encodeLine(questionLine{Type: "question", ID: "q1", Questions: dbSet("q1").Questions})
	if err != nil {
		b.Fatal(err)
	}
	br := bufio.NewReader(inR)
	n := 0
	for b.Loop() {
		if _, err := outW.Write(question); err != nil {
			b.Fatal(err)
		}
		line, err := br.ReadSlice('\n')
		if err != nil || len(line) != len(benchAnswer) {
			b.Fatalf("read: %v %q", err, line)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "roundtrips/s")
}
