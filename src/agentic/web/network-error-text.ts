/** The text a failed `fetch` leaves for a tool result. */

/**
 * What failed, for the tool result: undici reports "fetch failed" and hides the reason in `cause`;
 * a deadline reached says so.
 */
export function networkErrorText(error: unknown, deadline?: AbortSignal): string {
  if (deadline?.aborted === true && deadline.reason instanceof Error) return `Request ${deadline.reason.message}`;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== '') return `${error.message}: ${cause.message}`;
  return error.message;
}
