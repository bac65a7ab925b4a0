package ask

import "encoding/json"

// ToolDescription tells a model when and how to use the tool.
const ToolDescription = `Ask the user one to four multiple-choice questions and wait for the answers. Use it when you need the user's preference or decision to continue: an ambiguous instruction, several valid approaches with different trade-offs, or a choice only the user can make (which library, which providers, which environment). Do not use it to ask whether a plan is good or whether to proceed; decide what you can decide yourself.

How to ask well:
- Each question has a short header shown as a chip (at most 12 characters, e.g. "Database"), the full question text, and 2 to 4 options, each a label of 1 to 5 words with a one-line description of its trade-off.
- If you recommend an option, put it first and end its label with " (Recommended)".
- Set multiSelect to true when the choices are not mutually exclusive (features to enable, platforms to support).
- Do not add an "Other" option: the user can always answer in their own words instead.
- Ask related questions together in one call rather than one at a time.

The result lists each answer. An answer may come from an answers file or a default policy instead of a person; the result says so with an "Answered by" line. Treat those as defaults the user has not confirmed.`

// InputSchema is the JSON Schema of the tool input.
var InputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "questions": {
      "type": "array",
      "description": "Questions to ask the user (1-4 questions)",
      "minItems": 1,
      "maxItems": 4,
      "items": {
        "type": "object",
        "properties": {
          "question": {
            "type": "string",
            "description": "The complete question to ask the user, clear and specific, ending with a question mark."
          },
          "header": {
            "type": "string",
            "description": "Very short label shown as a chip or tag (at most 12 characters), e.g. \"Auth method\"."
          },
          "options": {
            "type": "array",
            "description": "The available choices (2-4 options). An \"Other\" choice for free text is added automatically; do not include one.",
            "minItems": 2,
            "maxItems": 4,
            "items": {
              "type": "object",
              "properties": {
                "label": {
                  "type": "string",
                  "description": "The display text of this option, 1-5 words. End it with \" (Recommended)\" to recommend it."
                },
                "description": {
                  "type": "string",
                  "description": "What this option means or what it trades off."
                }
              },
              "required": ["label", "description"],
              "additionalProperties": false
            }
          },
          "multiSelect": {
            "type": "boolean",
            "description": "Set to true to let the user choose several options instead of just one."
          }
        },
        "required": ["question", "header", "options", "multiSelect"],
        "additionalProperties": false
      }
    }
  },
  "required": ["questions"],
  "additionalProperties": false,
  "$schema": "http://json-schema.org/draft-07/schema#"
}`)
