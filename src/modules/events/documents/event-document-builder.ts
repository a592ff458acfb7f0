import type { RequestContext } from '../../../common/http/request-context';
import { DEFAULT_LANGUAGE } from '../../../common/i18n/language';
import type { EventObjectsService } from '../event-objects.service';
import type { EventObject } from '../event.mapper';
import type { EventRecord } from '../events.repository';
import { renderDocument, TEMPLATE_CONTEXT } from './event-document-template';
import type { StoredEventDocument } from './stored-event-document';

export type WithDocument = EventRecord & { document: StoredEventDocument };

/** A document ready to store, with the record (and generation) it was built from. */
export interface BuiltDocument {
  record: WithDocument;
  objectJson: string;
  jsonLd: string;
}

/**
 * A request unlike any real one, to check templates against: an upper-case host with a port, a path, and
 * characters JSON must escape in the namespace's URL.
 */
const SAMPLE_CONTEXT: RequestContext = Object.freeze({
  kind: 'request-context',
  user: null,
  language: DEFAULT_LANGUAGE,
  restBase: 'https://Sample.Example:8443/site/api',
  siteUrl: 'https://Sample.Example:8443/site',
  namespaceUrl: 'https://Sample.Example:8443/site/api/"q\\/cal/events/v1',
  dialect: 'cal',
  requestId: '',
  clientAddress: '',
  conditions: null,
});

/** The counts the event's embedded terms show. */
function countsShown(object: EventObject): Map<number, number> {
  const counts = new Map<number, number>();
  for (const key of ['categories', 'tags']) {
    const terms = object[key];
    if (Array.isArray(terms)) for (const t of terms as { id: number; count: number }[]) counts.set(t.id, t.count);
  }
  return counts;
}

/**
 * The documents of published, unprotected events: each event built twice, as the template and for the
 * sample request. A template is kept only if the event showed every linked record to an anonymous caller
 * and, filled for the sample, it is byte for byte the sample's JSON (a module whose mapper reworks URLs
 * would fail that, and its events are then always assembled). Otherwise the document is `''`: not the same
 * for every caller, until the event next changes.
 */
export async function buildDocuments(objects: EventObjectsService, records: WithDocument[]): Promise<BuiltDocument[]> {
  const templates = await objects.fromRecords(records, TEMPLATE_CONTEXT, () => false, { countPlaceholders: true });
  const samples = await objects.fromRecords(records, SAMPLE_CONTEXT, () => false);
  return records.map((record, i) => {
    const template = templates[i];
    const sample = samples[i];
    const objectJson = JSON.stringify(template.object);
    const jsonLd = JSON.stringify(objects.jsonLdOf(template));
    const counts = countsShown(sample.object);
    const same =
      template.complete &&
      renderDocument(objectJson, SAMPLE_CONTEXT, counts) === JSON.stringify(sample.object) &&
      renderDocument(jsonLd, SAMPLE_CONTEXT, counts) === JSON.stringify(objects.jsonLdOf(sample));
    return same ? { record, objectJson, jsonLd } : { record, objectJson: '', jsonLd: '' };
  });
}
