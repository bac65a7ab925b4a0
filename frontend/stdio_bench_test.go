package frontend

import (
	"bufio"
	"context"
	"io"
	"os"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
)

// The round-trip benchmarks put a question set to a program and read its
// answer line through one Stdio, b.N times. Each has a baseline that moves
// the same bytes over the same kind of pipes with no frontend, so a result
// is read as a ratio to a floor measured in the same run: the machine's
// speed and load cancel out.

// benchCase is a question set and the line a program answers it with.
type benchCase struct {
	name   string
	req    ask.Request
	answer string // one line, ending in "\n"
	check  func([]ask.Answer) bool
}

var benchCases = []benchCase{
	{
		// The plainest round trip: one question, answered by its label.
		name:   "questions=1",
		req:    oneQ("q1", "Database", "PostgreSQL (Recommended)", "SQLite"),
		answer: `{"id":"q1","answers":{"Database":"SQLite"}}` + "\n",
		check:  func(a []ask.Answer) bool { return len(a) == 1 && a[0].Selected[0] == "SQLite" },
	},
	{
		// Three questions, one multi-select with two labels.
		name:   "questions=3",
		req:    dbSet("q1"),
		answer: `{"id":"q1","answers":{"Database":"SQLite","Features":"TypeScript, Tailwind CSS","Region":"eu-west"}}` + "\n",
		check:  func(a []ask.Answer) bool { return len(a) == 3 && a[1].Selected[1] == "Tailwind CSS" },
	},
}

// benchPipes are the transports: in-memory pipes measure the frontend
// alone; OS pipes are what askuser's stdin and stdout are in real use.
var benchPipes = []struct {
	name string
	open func(b *testing.B) (io.ReadCloser, io.WriteCloser)
}{
	{"pipe=mem", func(*testing.B) (io.ReadCloser, io.WriteCloser) { return io.Pipe() }},
	{"pipe=os", func(b *testing.B) (io.ReadCloser, io.WriteCloser) {
		r, w, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		return r, w
	}},
}

// playProgram reads question lines from out and answers each with answer
// on in, until a pipe closes.
func playProgram(out io.Reader, in io.Writer, answer string) {
	br := bufio.NewReader(out)
	for {
		if _, err := br.ReadSlice('\n'); err != nil {
			return
		}
		if _, err := io.WriteString(in, answer); err != nil {
			return
		}
	}
}

// withProgram connects a program answering c to a fresh pair of pipes and
// returns the ends the asking side uses.
func withProgram(b *testing.B, open func(*testing.B) (io.ReadCloser, io.WriteCloser), c benchCase) (in io.Reader, out io.Writer) {
	inR, inW := open(b)
	outR, outW := open(b)
	b.Cleanup(func() { inW.Close(); outW.Close(); inR.Close(); outR.Close() })
	go playProgram(outR, inW, c.answer)
	return inR, outW
}

// BenchmarkStdioRoundTrip asks through one Stdio and checks every answer.
func BenchmarkStdioRoundTrip(b *testing.B) {
	for _, p := range benchPipes {
		for _, c := range benchCases {
			b.Run(p.name+"/"+c.name, func(b *testing.B) {
				in, out := withProgram(b, p.open, c)
				s := NewStdio(StdioConfig{In: in, Out: out, Via: "stdin"})
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					answers, err := s.Ask(ctx, c.req)
					if err != nil || !c.check(answers) {
						b.Fatalf("Ask: %v %+v", err, answers)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
			})
		}
	}
}

// BenchmarkPipeEchoBaseline writes the question line and reads the answer
// line over the same pipes with no frontend: the floor
// BenchmarkStdioRoundTrip is compared against.
func BenchmarkPipeEchoBaseline(b *testing.B) {
	for _, p := range benchPipes {
		for _, c := range benchCases {
			b.Run(p.name+"/"+c.name, func(b *testing.B) {
				in, out := withProgram(b, p.open, c)
				question, err := wire.Encode(wire.NewQuestion(c.req, "")), error(nil)
				if err != nil {
					b.Fatal(err)
				}
				br := bufio.NewReader(in)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := out.Write(question); err != nil {
						b.Fatal(err)
					}
					line, err := br.ReadSlice('\n')
					if err != nil || len(line) != len(c.answer) {
						b.Fatalf("read: %v %q", err, line)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
			})
		}
	}
}
