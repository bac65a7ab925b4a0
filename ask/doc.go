// Package ask is the question core of askuser: the AskUserQuestion input
// types, their tolerant decoding and strict validation, the answer types,
// the Frontend interface every way of asking implements, and the tool result
// the answers become.
//
// Invariants:
//   - The model-facing schema is Claude Code's AskUserQuestion, field for
//     field (questions, question, header, options, label, description,
//     multiSelect). The answers file, the JSON-lines protocol and the JSON
//     result reuse these types; there is no second schema.
//   - Fields an MCP host adds to every tool (Gemini CLI's
//     wait_for_previous) are ignored beside "questions", and only those, by
//     name (hostFields in decode.go); any other key off the schema is
//     refused with what to fix.
//   - Every Answer carries its Source. Only a frontend that saw a person
//     choose may set SourcePerson; the result text names every other source,
//     so a model can always tell a person's choice from a machine's.
//   - Text written by a model is passed through Display before a person sees
//     it; text typed by a person is passed through CleanFreeText before a
//     model sees it. Labels, headers and questions are compared (FoldKey)
//     on what Display leaves, with look-alike letters of other scripts
//     read as the Latin ones they are drawn as (skeleton), so what looks
//     the same is the same.
//   - A message that quotes a value it rejects quotes it through Excerpt,
//     so its size does not depend on the size of the input, and a
//     ValidationError lists at most MaxListedProblems problems.
//   - A tool's input shown to a person (an approval's whole input) is read
//     by ReadJSON, once for every place that shows it: the web card draws
//     its tree, a terminal its Outline, so both show the same fields in the
//     same order, strings decoded and made safe, nothing left out unsaid.
//   - A set offered to several frontends at once is answered by the first
//     to claim it (Claimer): a frontend shows an answer as accepted only
//     after its claim won, and one that lost shows what won, and where.
//   - This package does no I/O of its own and imports no frontend.
package ask
