/**
 * Model-output decoders: turn the `result` of a result file into decoded calls (`decode_ast`, for
 * the AST checker and relevance checks) or executable call strings (`decode_execute`, for
 * multi-turn execution), as the reference's model handlers do.
 */
export { decodeAstFC, decodeExecuteFC, convertToFunctionCall } from './fc.js';
export { decodeAstPrompting, decodeExecutePrompting, astParse } from './prompting.js';
export { decodedOutputToExecutionList, parseNestedValue } from './execution-list.js';
export { RETURN_FORMATS, type DecodeResult, type ReturnFormat } from './result.js';
