// Package elicit maps an MCP elicitation form to one askuser question set,
// and the answers back to the content the server asked for. It works on
// the requested JSON Schema as JSON, so askuser's MCP client and `askuser
// hook` (Claude Code's Elicitation event) share it; it imports only ask and
// the standard library.
//
// A form is a flat JSON Schema object. Each property becomes one question,
// in the order the schema lists them:
//   - a string enum (enum, enum with enumNames, or oneOf/anyOf of
//     {const, title}) is a single select labelled with the titles;
//   - an array of such an enum is a multi-select;
//   - a boolean is Yes / No;
//   - a free string, number or integer is a question answered with free
//     text ("Other"), parsed and checked against the schema's limits.
//
// A form with no properties is a confirmation: Accept / Decline.
//
// Invariants:
//   - Content holds exactly the schema's values: an enum answer maps back
//     to the value the schema gave, never to a label, and never with
//     "(Recommended)", which marks the schema's default only for display.
//   - A form needs more room than AskUserQuestion gives a model (1–4
//     questions of 2–4 options): one set holds every field, with as many
//     options as the schema lists. Headers stay within ask.MaxHeaderChars
//     and are unique in the set.
//   - An optional field may be left empty (no answer, or the Skip option
//     an optional field without a default gets: a field left out takes
//     its default); a required one may not, and is reported as a Problem
//     so the caller asks again.
//   - The recommended-option policy never invents a value: a field it
//     answered gets the schema's default, or is left empty when optional;
//     a required field without a default, or a confirmation, answered only
//     by the policy is a final Problem, so the form is declined. A server
//     may act on a form; a machine's guess is not a person's consent.
//   - What this package cannot ask (nested objects, arrays of anything but
//     an enum, an oversized form) is an error wrapping ErrUnsupported whose
//     text is the reason to decline with.
package elicit
