/**
 * Every error the API can answer with, and its HTTP status. Codes come from behaviour.md §2.
 * The message tables are typed against these keys, so adding a key without a status or a
 * message in every language does not compile.
 */
export const ERROR_SPECS = {
  missing_param: { status: 400, code: 'rest_missing_callback_param' },
  invalid_param: { status: 400, code: 'rest_invalid_param' },
  invalid_json: { status: 400, code: 'rest_invalid_json' },
  json_too_deep: { status: 400, code: 'rest_invalid_json' },
  invalid_host: { status: 400, code: 'rest_invalid_host' },
  invalid_event_id: { status: 400, code: 'rest-invalid-event-id' },
  invalid_linked_post_id: { status: 400, code: 'invalid-linked-post-id' },
  term_exists: { status: 400, code: 'term_exists' },
  feed_too_large: { status: 400, code: 'rest_feed_too_large' },
  taxonomy_not_hierarchical: { status: 400, code: 'rest_taxonomy_not_hierarchical' },
  unauthenticated: { status: 401, code: 'rest_forbidden' },
  invalid_credentials: { status: 401, code: 'rest_forbidden' },
  forbidden: { status: 403, code: 'rest_forbidden' },
  event_password_protected: { status: 403, code: 'event-password-protected' },
  event_no_longer_available: { status: 403, code: 'event-no-longer-available' },
  term_not_found: { status: 404, code: 'rest-term-not-found' },
  webhook_not_found: { status: 404, code: 'rest-webhook-not-found' },
  delivery_not_found: { status: 404, code: 'rest-webhook-delivery-not-found' },
  import_not_found: { status: 404, code: 'rest-import-not-found' },
  import_run_not_found: { status: 404, code: 'rest-import-run-not-found' },
  no_route: { status: 404, code: 'rest_no_route' },
  invalid_namespace: { status: 404, code: 'rest_invalid_namespace' },
  conflict: { status: 409, code: 'rest_conflict' },
  import_running: { status: 409, code: 'rest-import-running' },
  credentials_key_missing: { status: 400, code: 'rest-credentials-key-missing' },
  sync_token_expired: { status: 410, code: 'rest_sync_token_expired' },
  precondition_failed: { status: 412, code: 'rest_precondition_failed' },
  payload_too_large: { status: 413, code: 'rest_payload_too_large' },
  too_many_parameters: { status: 413, code: 'rest_payload_too_large' },
  unsupported_media_type: { status: 415, code: 'rest_unsupported_media_type' },
  too_many_requests: { status: 429, code: 'rest_too_many_requests' },
  internal: { status: 500, code: 'rest_internal_error' },
  service_unavailable: { status: 503, code: 'rest_service_unavailable' },
  // `refusal`: the service turns the request away by design (a load limit); logged as a refusal, not an error.
  feeds_busy: { status: 503, code: 'rest_feeds_busy', refusal: true },
  // Per post type: the code is built from the type's noun (`rest-venue-not-found`, `event-is-in-trash`).
  post_not_found: { status: 404, code: 'rest-{noun}-not-found' },
  post_not_accessible: { status: 403, code: '{noun}-not-accessible' },
  post_archive_page_not_found: { status: 404, code: '{noun}-archive-page-not-found' },
  post_in_trash: { status: 410, code: '{noun}-is-in-trash' },
} as const satisfies Record<string, { status: number; code: string; refusal?: true }>;

export type ErrorKey = keyof typeof ERROR_SPECS;
