import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Set while the background fill of event documents runs: tests that count a request's statements leave
 * out the ones a fill it set off runs beside it.
 */
export const documentFills = new AsyncLocalStorage<true>();
