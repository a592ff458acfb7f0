import { createHash, type Hash } from 'node:crypto';

/**
 * A running fingerprint of what a run has read of its source, page by page (each page by its SHA-256, hashed
 * as it arrived): `pages:sha256-of-all-so-far`.
 * Two runs that read the same bytes to the same page give the same value there, which is how a run knows
 * it is about to read again, unchanged, the source under which an earlier run crashed.
 */
export class SourceDigest {
  private readonly hash: Hash = createHash('sha256');
  private pages = 0;

  /** Adds a page (an iCalendar feed is one) by its SHA-256, and gives the digest up to it. */
  add(pageSha256: string): string {
    this.hash.update(pageSha256);
    this.pages++;
    return `${this.pages}:${this.hash.copy().digest('hex')}`;
  }
}

/** Told each digest as the source is read; throws to refuse going on (`ImportCrashed`). */
export type SourceReadHook = (digest: string) => Promise<void>;
