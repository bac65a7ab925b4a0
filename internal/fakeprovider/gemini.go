package fakeprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// geminiWire speaks the Gemini API as Gemini CLI (0.61, an API key,
// GOOGLE_GEMINI_BASE_URL) calls it: POST
// /v1beta/models/{model}:streamGenerateContent?alt=sse, answered with
// data-only SSE events, each a GenerateContentResponse: one per text piece,
// one per function call (args as a JSON object, never split), then one
// with an empty text part, the finishReason and the usage. The model is
// named by the path, not the body. A plain :generateContent (no stream) is
// refused like any non-streaming request.
type geminiWire struct{}

const geminiPrefix = "/v1beta/models/"

func (geminiWire) pathOK(path string) bool {
	rest, ok := strings.CutPrefix(path, geminiPrefix)
	model, method, found := strings.Cut(rest, ":")
	return ok && found && model != "" && (method == "streamGenerateContent" || method == "generateContent")
}

// requestIDHeader: the Gemini API sends none that a client reads.
func (geminiWire) requestIDHeader() string { return "" }

func (geminiWire) decode(req *Request) error {
	var body struct {
		Contents          []json.RawMessage `json:"contents"`
		SystemInstruction *struct {
			Parts []geminiPart `json:"parts"`
		} `json:"systemInstruction"`
		Tools []struct {
			FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			MaxOutputTokens int64 `json:"maxOutputTokens"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return fmt.Errorf("decode the request: %w", err)
	}
	if body.Contents == nil {
		return errors.New("contents: field required")
	}
	rest := strings.TrimPrefix(req.Path, geminiPrefix)
	model, method, _ := strings.Cut(rest, ":")
	req.Model, req.Stream = model, method == "streamGenerateContent"
	req.Messages, req.MaxTokens = body.Contents, body.GenerationConfig.MaxOutputTokens
	if body.SystemInstruction != nil {
		req.System = geminiText(body.SystemInstruction.Parts)
	}
	// Tools are flattened: each function declaration is one tool.
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.FunctionDeclarations...)
	}
	return nil
}

// geminiPart is the part of a Content the fake reads.
type geminiPart struct {
	Text             *string `json:"text"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// geminiText joins the text parts.
func geminiText(parts []geminiPart) string {
	var texts []string
	for _, p := range parts {
		if p.Text != nil {
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// geminiStatus is the status name the API sends with an HTTP status.
func geminiStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	return "INTERNAL"
}

func geminiError(status int, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"code": status, "message": msg, "status": geminiStatus(status)}}
}

func (geminiWire) writeError(w http.ResponseWriter, status int, msg string, _ int) {
	w.Header().Set("content-type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(geminiError(status, msg)) // a client that went away needs no answer
}

// geminiFinish translates a turn's stop reason to a finishReason. Gemini
// says STOP after function calls too.
func geminiFinish(t Turn) string {
	switch t.StopReason {
	case "", "end_turn", "tool_use":
		return "STOP"
	case "max_tokens":
		return "MAX_TOKENS"
	case "refusal":
		return "SAFETY"
	}
	return t.StopReason
}

func (geminiWire) stream(sw *sse, t Turn, n int, req Request) {
	u := t.usage()
	prompt := u.InputTokens + u.CacheReadInputTokens
	chunk := func(part map[string]any, finish string) map[string]any {
		candidate := map[string]any{"content": map[string]any{"parts": []any{part}, "role": "model"}, "index": 0}
		usage := map[string]any{"promptTokenCount": prompt}
		if finish != "" {
			candidate["finishReason"] = finish
			usage = map[string]any{"promptTokenCount": prompt, "candidatesTokenCount": u.OutputTokens,
				"totalTokenCount": prompt + u.OutputTokens, "cachedContentTokenCount": u.CacheReadInputTokens}
		}
		return map[string]any{"candidates": []any{candidate}, "usageMetadata": usage,
			"modelVersion": req.Model, "responseId": fmt.Sprintf("fake-response-%d", n)}
	}
	if t.Malformed {
		sw.raw("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\n\n")
		return
	}
	if !playText(sw, t, func(piece string) {
		sw.event("", chunk(map[string]any{"text": piece}, ""))
	}, func(msg string) {
		sw.event("", geminiError(http.StatusInternalServerError, msg))
	}) {
		return
	}
	for _, tc := range t.ToolCalls {
		call := map[string]any{"name": tc.Name, "args": geminiArgs(tc.input())}
		if tc.ID != "" {
			call["id"] = tc.ID
		}
		sw.event("", chunk(map[string]any{"functionCall": call}, ""))
	}
	sw.event("", chunk(map[string]any{"text": ""}, geminiFinish(t)))
}

// geminiArgs is a call's input as the args object. Input that is not JSON
// (which the API never sends: args is an object, not a string to parse) is
// sent as a JSON string, so the stream stays valid and the client sees
// what it got.
func geminiArgs(input string) any {
	if input == "" {
		return map[string]any{}
	}
	if json.Valid([]byte(input)) {
		return json.RawMessage(input)
	}
	return input
}

// toolResults lists the functionResponse parts the client sent: the id
// (the function's name when the client gave none) and the response object
// exactly as sent, which a test decodes. A response with an "error" key
// and no "output" counts as an error.
func (geminiWire) toolResults(req Request) []ToolResultSeen {
	var out []ToolResultSeen
	for _, raw := range req.Messages {
		var c struct {
			Parts []geminiPart `json:"parts"`
		}
		if json.Unmarshal(raw, &c) != nil {
			continue
		}
		for _, p := range c.Parts {
			fr := p.FunctionResponse
			if fr == nil {
				continue
			}
			id := fr.ID
			if id == "" {
				id = fr.Name
			}
			var keys map[string]json.RawMessage
			_ = json.Unmarshal(fr.Response, &keys)
			_, hasErr := keys["error"]
			_, hasOut := keys["output"]
			out = append(out, ToolResultSeen{ToolUseID: id, Content: string(fr.Response), IsError: hasErr && !hasOut})
		}
	}
	return out
}
