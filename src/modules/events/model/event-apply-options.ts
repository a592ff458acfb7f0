import type { PostWriteInput } from '../../../core/posts/post-write-input';
import type { EventDates } from './event-dates';

/** How `EventRecordWriter.apply` writes an event besides its dto. */
export interface EventApplyOptions {
  /** Its new start and end (a series edit moves occurrences itself); else the dto's, read against the stored. */
  dates?: EventDates;
  /** Post fields copied as they are stored (a series' hashed password, its fetched image). */
  post?: PostWriteInput;
  /** An occurrence edited on its own: later edits of its series leave it as it is. */
  detach?: boolean;
  /** The occurrence's rule time after a move of its series. */
  occurrenceLocal?: string;
  /** False: the caller writes the terms, links and modules' fields of many events at once (a series). */
  links?: boolean;
}
