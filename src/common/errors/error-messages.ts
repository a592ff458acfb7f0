import type { Language } from '../i18n/language';
import type { ErrorKey } from './error-specs';

/** Human-readable error messages; `{label}` is the post type's localized name. */
export const ERROR_MESSAGES: Record<Language, Record<ErrorKey, string>> = {
  en: {
    missing_param: 'Missing parameter(s): {params}',
    invalid_param: 'Invalid parameter(s): {params}',
    invalid_json: 'Invalid JSON body passed.',
    json_too_deep: 'The request parameters are nested more than {max} levels deep.',
    invalid_host: 'The Host header names no host this service answers for.',
    invalid_event_id: 'The ID {id} is not the ID of an event.',
    invalid_linked_post_id: 'The ID {id} is not the ID of a {label}.',
    term_exists: 'A term with the name provided already exists with this parent.',
    feed_too_large:
      'This feed would hold more than {max} events; narrow it with start_date and end_date or another filter.',
    taxonomy_not_hierarchical: 'Cannot set parent term, taxonomy is not hierarchical.',
    unauthenticated: 'Sorry, you are not allowed to do that without logging in.',
    invalid_credentials:
      'The login or application password is wrong, or the password was revoked (HTTP Basic: login:application password).',
    forbidden: 'Sorry, you are not allowed to do that.',
    event_password_protected: 'This event is password protected; the password is missing or wrong.',
    event_no_longer_available: 'This event is no longer available.',
    term_not_found: 'Term does not exist.',
    webhook_not_found: 'No webhook with this ID.',
    delivery_not_found: 'No delivery with this ID for this webhook.',
    no_route: 'No route was found matching the URL and request method.',
    invalid_namespace: 'The specified namespace could not be found.',
    conflict: 'The request conflicts with the current state of the record; retry it.',
    sync_token_expired:
      'This sync token is older than the change log keeps (or from another database); download the records again and sync from a new token.',
    precondition_failed:
      'The record changed since you read it (If-Match / If-Unmodified-Since); read it again and repeat your change.',
    payload_too_large: 'The request body is larger than the service accepts.',
    unsupported_media_type: 'Send parameters as JSON or as a form (application/x-www-form-urlencoded).',
    too_many_requests: 'Too many requests; try again later.',
    internal: 'The service failed to answer this request. Quote the request ID when reporting it.',
    service_unavailable: 'The service is temporarily unavailable.',
    feeds_busy: 'Too many calendar feeds are being written right now; try again in a few seconds.',
    post_not_found: 'The requested {label} does not exist.',
    post_not_accessible: 'You are not allowed to read this {label}.',
    post_archive_page_not_found: 'The requested page of {label} results does not exist.',
    post_in_trash: 'This {label} is already in the trash.',
  },
  de: {
    missing_param: 'Fehlende(r) Parameter: {params}',
    invalid_param: 'Ungültige(r) Parameter: {params}',
    invalid_json: 'Der JSON-Inhalt der Anfrage ist ungültig.',
    json_too_deep: 'Die Anfrageparameter sind tiefer als {max} Ebenen verschachtelt.',
    invalid_host: 'Der Host-Header nennt keinen Host, für den dieser Dienst antwortet.',
    invalid_event_id: 'Die ID {id} gehört zu keiner Veranstaltung.',
    invalid_linked_post_id: 'Die ID {id} gehört zu keinem Eintrag vom Typ {label}.',
    term_exists: 'Ein Begriff mit diesem Namen existiert unter diesem Elternbegriff bereits.',
    feed_too_large:
      'Dieser Feed enthielte mehr als {max} Veranstaltungen; bitte mit start_date und end_date oder einem anderen Filter eingrenzen.',
    taxonomy_not_hierarchical: 'Ein Elternbegriff ist nicht möglich: die Taxonomie ist nicht hierarchisch.',
    unauthenticated: 'Dazu musst du angemeldet sein.',
    invalid_credentials:
      'Anmeldename oder Anwendungspasswort sind falsch, oder das Passwort wurde widerrufen (HTTP Basic: Anmeldename:Anwendungspasswort).',
    forbidden: 'Dazu fehlt dir die Berechtigung.',
    event_password_protected: 'Diese Veranstaltung ist passwortgeschützt; das Passwort fehlt oder ist falsch.',
    event_no_longer_available: 'Diese Veranstaltung ist nicht mehr verfügbar.',
    term_not_found: 'Der Begriff existiert nicht.',
    webhook_not_found: 'Kein Webhook mit dieser ID.',
    delivery_not_found: 'Keine Zustellung mit dieser ID für diesen Webhook.',
    no_route: 'Für diese URL und Anfragemethode gibt es keine Route.',
    invalid_namespace: 'Der angegebene Namensraum wurde nicht gefunden.',
    conflict: 'Die Anfrage steht im Konflikt mit dem aktuellen Stand des Eintrags; bitte wiederholen.',
    sync_token_expired:
      'Dieses Sync-Token ist älter als das Änderungsprotokoll (oder stammt aus einer anderen Datenbank); bitte alle Einträge neu laden und mit einem neuen Token synchronisieren.',
    precondition_failed:
      'Der Eintrag wurde seit dem Lesen geändert (If-Match / If-Unmodified-Since); bitte neu lesen und die Änderung wiederholen.',
    payload_too_large: 'Der Inhalt der Anfrage ist größer als erlaubt.',
    unsupported_media_type: 'Parameter bitte als JSON oder als Formular (application/x-www-form-urlencoded) senden.',
    too_many_requests: 'Zu viele Anfragen; bitte später erneut versuchen.',
    internal: 'Der Dienst konnte die Anfrage nicht beantworten. Bitte die Anfrage-ID bei Meldungen angeben.',
    service_unavailable: 'Der Dienst ist vorübergehend nicht verfügbar.',
    feeds_busy: 'Gerade werden zu viele Kalender-Feeds geschrieben; bitte in einigen Sekunden erneut versuchen.',
    post_not_found: '{label}: der angeforderte Eintrag existiert nicht.',
    post_not_accessible: '{label}: du darfst diesen Eintrag nicht lesen.',
    post_archive_page_not_found: '{label}: diese Ergebnisseite existiert nicht.',
    post_in_trash: '{label}: der Eintrag liegt bereits im Papierkorb.',
  },
};
