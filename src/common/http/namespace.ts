/** The REST namespace of this API; every resource route lives below it. */
export const NAMESPACE = 'cal/events/v1';

/**
 * The Events Calendar's own namespace, under WordPress's REST root (`/wp-json`): with `TEC_COMPAT` (on by
 * default) the same API answers there too, so clients written for the reference work unchanged
 * (docs/calendar-clients.md).
 */
export const TEC_REST_ROOT = 'wp-json';
export const TEC_NAMESPACE = 'tribe/events/v1';
