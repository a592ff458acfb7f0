/** The REST namespace of this API; every resource route lives below it. */
export const NAMESPACE = 'cal/events/v1';
