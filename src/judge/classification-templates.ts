/**
 * The tool_selection and tool_invocation judge prompts of Arize Phoenix (spec §2.4), shipped under
 * the Apache License 2.0: Copyright (c) Arize AI, Inc, from the npm package @arizeai/phoenix-evals
 * (js/packages/phoenix-evals/src/__generated__/default_templates/TOOL_SELECTION_CLASSIFICATION_EVALUATOR_CONFIG.ts
 * and TOOL_INVOCATION_CLASSIFICATION_EVALUATOR_CONFIG.ts). Modified by bfcl-ts: the leading and
 * trailing newline removed and `{{availableTools}}` / `{{toolSelection}}` renamed
 * `{{available_tools}}` / `{{tool_selection}}`, which gives the bytes of the Python package's
 * prompts (arize-phoenix-evals 2.10.0 and later). See NOTICE.
 */

/** A Phoenix classification prompt (one user message, Mustache variables) and its choices. */
export interface ClassificationPrompt {
  /** Phoenix's evaluator name. */
  readonly name: 'tool_selection' | 'tool_invocation';
  /** The arize-phoenix-evals release the text is pinned to (unchanged since 2.10.0). */
  readonly version: string;
  readonly content: string;
  /** Label → score. */
  readonly choices: ReadonlyMap<string, number>;
}

const CHOICES: ReadonlyMap<string, number> = new Map([
  ['correct', 1],
  ['incorrect', 0],
]);

/** Whether the LLM picked the right tool(s), or rightly none (1665 bytes, sha256 a0119f07…). */
export const TOOL_SELECTION_PROMPT: ClassificationPrompt = {
  name: 'tool_selection',
  version: '3.5.0',
  content: `You are an impartial judge evaluating an LLM's tool-calling behavior, specifically whether the LLM selected the most appropriate tool or tools for the task.

Your task: Determine whether the LLM's tool selection was correct or incorrect based on:
- The conversation context (input)
- The available tools
- The LLM's output and tool invocation(s)

Criteria
Return "correct" only when ALL of the following are true:
- The LLM chose the best available tool for the user query OR correctly avoided tools if none were needed.
- The tool name exists in the available tools list.
- The tool is allowed and safe to call.
- The LLM selected the correct number of tools for the task.

Return "incorrect" if ANY of the following are true:
- The LLM used a hallucinated or nonexistent tool.
- The LLM selected a tool when none was needed.
- The LLM did not use a tool when one was required.
- The LLM chose a suboptimal or irrelevant tool.
- The LLM selected an unsafe or not-permitted tool.
- The tool name does not appear in the available tools list.

Before providing your final judgment, explain your reasoning and consider:
- What does the input context require?
- Can this be answered without tools, or is a tool necessary?
- If a tool was selected, does it exist in the available tools?
- Does the selected tool's description match the user's needs?
- Is the selection safe and appropriate?
- Is there a better tool available that should have been chosen instead?

<data>
<input>
{{input}}
</input>

<available_tools>
{{available_tools}}
</available_tools>

<output>
{{tool_selection}}
</output>
</data>

Given the above data, is the tool selection correct or incorrect?`,
  choices: CHOICES,
};

/** Whether the tool call(s) have valid, intended arguments (3206 bytes, sha256 922dce6f…). */
export const TOOL_INVOCATION_PROMPT: ClassificationPrompt = {
  name: 'tool_invocation',
  version: '3.5.0',
  content: `You are an impartial judge evaluating an LLM's tool-calling behavior, specifically whether the LLM invoked a tool (or tools) correctly with valid arguments and proper formatting.

Your task: Determine whether the LLM's tool invocation(s) were correct or incorrect based on:
- The full conversation context (including all previous turns, not just the most recent message)
- The available tool schemas
- The LLM's tool invocation(s) with arguments

IMPORTANT - Tool Invocation vs. Tool Selection:
- You are ONLY evaluating the tool invocation, not the tool selection.
- If the tool selection is incorrect or not relevant to the user's query, but the tool invocation is correct, return "correct".
- If the tool selection is correct but the tool invocation is incorrect, return "incorrect".

IMPORTANT - Multi-Tool Invocations:
- The LLM may invoke MULTIPLE tools in a single response. This is valid and expected for complex requests.
- When multiple tools are invoked, evaluate EACH tool invocation independently.
- Return "correct" only if ALL tool invocations are correct.
- Return "incorrect" if ANY tool invocation has an error.

IMPORTANT - Conversation Context (input):
- Read the entire conversation history carefully, not just the final user message.
- Argument values may need to be extracted from EARLIER turns in the conversation (e.g., user mentions a location, date, or quantity in a previous message).
- The LLM should use context from the full conversation to populate argument values correctly.

Criteria
Return "correct" only when ALL of the following are true for EVERY tool invocation:
- JSON is properly structured (if applicable).
- All required fields/parameters are present.
- No hallucinated or nonexistent fields (all fields exist in the tool schema).
- Argument values match the user's intent from the conversation context (correct types, realistic values).
- No unsafe content (e.g., PII like SSNs, credit card numbers, passwords) in arguments.

Return "incorrect" if ANY of the following are true for ANY tool invocation:
- The invocation contains hallucinated or nonexistent fields not in the schema.
- Required fields/parameters are missing.
- JSON is improperly formatted or malformed.
- Argument values are incorrect, hallucinated, or do not match user intent from the conversation.
- Arguments contain unsafe content (e.g., PII, sensitive data that should not be passed).

Before providing your final judgment, explain your reasoning and consider:
- How many tools were invoked? Evaluate each one.
- Does each tool invocation match the schema for that tool?
- Are all required parameters provided with appropriate values for each invocation?
- Are there any extra fields that don't exist in the schema?
- Looking at the FULL input: do the argument values accurately reflect what the user requested across all messages?
- Is there any unsafe or sensitive content in any of the arguments?
- Check that you are not evaluating the tool selection, only the tool invocation.

<data>
<input>
{{input}}
</input>

<available_tools>
{{available_tools}}
</available_tools>

<output>
{{tool_selection}}
</output>
</data>

Given the above data, is the tool invocation correct or incorrect?`,
  choices: CHOICES,
};
