/** An error's message, whatever was thrown (an Error, an object with a message, a string). */
export function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
