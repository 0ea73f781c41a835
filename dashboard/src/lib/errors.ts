//! Turning thrown errors into the server message shown in toasts.

/**
 * The API client throws "STATUS: body"; the daemon's body is {"error":{"message":"..."}}. Toasts show that
 * inner message when there is one, the whole error message otherwise.
 */
export function serverMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error ?? "");
  const match = /^(\d{3}): ([\s\S]*)$/.exec(message);
  if (!match) return message || "Something went wrong";
  const body = match[2];
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (parsed && typeof parsed === "object") {
      if (typeof parsed.error === "string") return parsed.error;
      if (parsed.error && typeof parsed.error.message === "string") return parsed.error.message;
      if (typeof parsed.message === "string") return parsed.message;
    }
  } catch {
    /* not JSON: the body text (or status text) itself */
  }
  return body || message;
}
