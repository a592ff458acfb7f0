/** How a route names a record: by numeric id or by slug. */
export type PostRef = { id: number } | { slug: string };

export const byId = (id: number): PostRef => ({ id });
export const bySlug = (slug: string): PostRef => ({ slug: slug.toLowerCase() });
