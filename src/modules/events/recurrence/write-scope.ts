/** What a write to an occurrence changes (behaviour.md §11): it alone, it and the later ones, or the series. */
export const WRITE_SCOPES = ['this', 'following', 'all'] as const;
export type WriteScope = (typeof WRITE_SCOPES)[number];
