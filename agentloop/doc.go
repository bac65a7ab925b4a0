// Package agentloop runs an agent: it sends the conversation to a model
// provider, executes the tool calls the model makes, and when the model
// calls AskUserQuestion it asks through an ask.Frontend and returns the
// formatted answers as the tool result.
//
// Design:
//   - Providers sit behind one small interface (Provider) and speak a
//     provider-neutral Message whose JSON is the Anthropic Messages shape,
//     which is also the shape of Claude Code's stream-json lines. Three
//     implement it: Anthropic (the Messages API), OpenAI (Chat Completions,
//     for any compatible server) and Script (a YAML file of turns). This
//     package speaks both APIs itself, one endpoint each, through the same
//     HTTP code (postJSON, sseReader): the official SDKs linked far more
//     than that endpoint into every askuser process.
//     The real ones retry rate limits, overload, 5xx and network errors
//     with backoff, or after the wait the server asks for if it is at most
//     a minute (a longer one ends the call at once), never repeat text
//     already streamed, and end in a
//     *ProviderError that names the provider, the status and what to check.
//     A server silent for the stream idle timeout (no headers, or no byte
//     of the stream) is a network failure, so no call waits forever.
//   - The loop depends on ask, never on frontend: the binary's wiring picks
//     the frontend.
//   - Tool failures are results for the model (an error tool_result that
//     says what to fix); only broken I/O or a provider failure is a Go error.
//   - Every message is handed to the Journal before the loop acts on it, so
//     a run killed at any instant can be resumed without repeating a model
//     call or a question that was already answered.
package agentloop
