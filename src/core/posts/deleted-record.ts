/**
 * What a permanent delete (`force=true`) answers, as WordPress core does: the record is gone, and
 * `previous` is how it was (its status then, not a status it still has). Trashing answers the trashed
 * record itself (behaviour.md §5), whose `status` is `trash`.
 */
export interface DeletedRecord<T> {
  deleted: true;
  previous: T;
}

export function deletedRecord<T>(previous: T): DeletedRecord<T> {
  return { deleted: true, previous };
}
