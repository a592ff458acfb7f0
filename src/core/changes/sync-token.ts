/** A position in the change log: after the row (`seq`, `position`); `position` -1 is before the write `seq`. */
export interface SyncPosition {
  seq: number;
  position: number;
}

const FORM = /^(\d{1,15})\.(-1|\d{1,9})$/;

/** Opaque to clients (base64url), so its form can change without breaking them. */
export function encodeSyncToken(at: SyncPosition): string {
  return Buffer.from(`${at.seq}.${at.position}`).toString('base64url');
}

/** The position a token names, or null when it is not one this service wrote. */
export function decodeSyncToken(token: string): SyncPosition | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(token)) return null;
  const match = FORM.exec(Buffer.from(token, 'base64url').toString('latin1'));
  if (!match) return null;
  return { seq: Number(match[1]), position: Number(match[2]) };
}

/** Beyond any position a write's rows take (one write logs far fewer rows). */
const LAST_POSITION = 999_999_999;

/** The position after every row of writes up to and including `seq`. */
export const afterWrite = (seq: number): SyncPosition => ({ seq, position: LAST_POSITION });

export const isBefore = (a: SyncPosition, b: SyncPosition): boolean =>
  a.seq < b.seq || (a.seq === b.seq && a.position < b.position);
