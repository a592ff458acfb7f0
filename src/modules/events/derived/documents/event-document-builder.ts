import { toAuthUser } from '../../../../auth/auth-user';
import { DIALECTS, type Dialect, type RequestContext } from '../../../../common/http/request-context';
import { DEFAULT_LANGUAGE } from '../../../../common/i18n/language';
import type { EventObjectsService } from '../../model/event-objects.service';
import type { EventObject } from '../../model/event.mapper';
import type { EventRecord } from '../../model/event-record';
import { PostEntity } from '../../../../core/posts/post.entity';
import { EventDetailsEntity } from '../../model/event-details.entity';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import { inDialect, renderDocument, TEMPLATE_CONTEXT } from './event-document-template';
import type { StoredEventDocument } from './stored-event-document';

export type WithDocument = EventRecord & { document: StoredEventDocument };

/** A document ready to store, with the record (and generation) it was built from. */
export interface BuiltDocument {
  record: WithDocument;
  objectJson: string;
  jsonLd: string;
  validUntilUtc: string | null;
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

/**
 * The sample request as an administrator would send it: a document is served to every caller, signed in or
 * not, so an event whose representation differs for them (a field that depends on the caller) gets none.
 */
const SIGNED_IN_SAMPLE: RequestContext = Object.freeze({
  ...SAMPLE_CONTEXT,
  user: toAuthUser({ id: 2_147_483_000, login: 'sample-administrator', role: 'administrator' }),
});

/** The object without the members of module fields that differ between callers by design. */
function withoutMembers(object: EventObject, names: readonly string[]): EventObject {
  if (names.length === 0) return object;
  const copy = { ...object };
  for (const name of names) delete copy[name];
  return copy;
}

/** The counts the event's embedded terms show: of every taxonomy it carries, a module's included. */
function countsShown(object: EventObject): Map<number, number> {
  const counts = new Map<number, number>();
  for (const value of Object.values(object)) {
    if (!Array.isArray(value)) continue;
    for (const item of value as unknown[]) {
      const term = item as { id?: unknown; count?: unknown; taxonomy?: unknown } | null;
      if (typeof term?.id === 'number' && typeof term.count === 'number' && typeof term.taxonomy === 'string')
        counts.set(term.id, term.count);
    }
  }
  return counts;
}

/**
 * The documents of published, unprotected events: each event built three times, as the template and for the
 * sample request, anonymous and signed in. A template is kept only if the event showed every linked record to
 * an anonymous caller, the signed-in sample is the anonymous one (apart from `callerFields`, module fields
 * declared to differ: their documents serve anonymous callers only), and, filled for the sample, the template is
 * byte for byte the sample's JSON (a module whose mapper reworks URLs
 * would fail that, and its events are then always assembled). Otherwise the document is `''`: not the same
 * for every caller, until the event next changes.
 */
export async function buildDocuments(
  objects: EventObjectsService,
  records: WithDocument[],
  callerFields: readonly string[] = [],
  dialect: Dialect = 'cal',
): Promise<BuiltDocument[]> {
  const template = inDialect(TEMPLATE_CONTEXT, dialect);
  const sampleContext = inDialect(SAMPLE_CONTEXT, dialect);
  const templates = await objects.fromRecords(records, template, () => false, { countPlaceholders: true });
  const samples = await objects.fromRecords(records, sampleContext, () => false);
  const signedIn = await objects.fromRecords(records, inDialect(SIGNED_IN_SAMPLE, dialect), () => false);
  return records.map((record, i) => {
    const template = templates[i];
    const sample = samples[i];
    const objectJson = JSON.stringify(template.object);
    const jsonLd = JSON.stringify(objects.jsonLdOf(template));
    const counts = countsShown(sample.object);
    const same =
      template.complete &&
      JSON.stringify(withoutMembers(signedIn[i].object, callerFields)) ===
        JSON.stringify(withoutMembers(sample.object, callerFields)) &&
      renderDocument(objectJson, sampleContext, counts) === JSON.stringify(sample.object) &&
      renderDocument(jsonLd, sampleContext, counts) === JSON.stringify(objects.jsonLdOf(sample));
    const validUntilUtc = sample.validUntilUtc;
    return same ? { record, objectJson, jsonLd, validUntilUtc } : { record, objectJson: '', jsonLd: '', validUntilUtc };
  });
}

/** An event with every field set and nothing linked, built at start to name the representation's shape. */
function shapeSampleRecord(): EventRecord {
  const post = Object.assign(new PostEntity(), {
    id: 2_147_483_001,
    type: EVENT_POST_TYPE.type,
    slug: 'shape-sample',
    title: 'Shape <b>sample</b>',
    content: '<p>Sample</p>',
    excerpt: 'Sample',
    status: 'publish',
    authorId: 1,
    parentId: null,
    passwordHash: null,
    trashedFrom: null,
    featuredImageId: null,
    menuOrder: 0,
    dateLocal: '2030-01-02 03:04:05',
    dateUtc: '2030-01-02 02:04:05',
    modifiedLocal: '2030-01-02 03:04:05',
    modifiedUtc: '2030-01-02 02:04:05',
  });
  const details = Object.assign(new EventDetailsEntity(), {
    postId: post.id,
    startLocal: '2030-01-03 19:00:00',
    endLocal: '2030-01-03 22:00:00',
    startUtc: '2030-01-03 18:00:00',
    endUtc: '2030-01-03 21:00:00',
    timezone: 'Europe/Berlin',
    allDay: false,
    cost: '15',
    currencySymbol: '€',
    currencyCode: 'EUR',
    currencyPosition: 'postfix',
    website: 'https://example.org/sample',
    showMap: true,
    showMapLink: true,
    hideFromListings: false,
    sticky: false,
    featured: true,
  });
  return { post, details };
}

/**
 * What the event representation looks like in this build: a sample event built as the anonymous and the
 * signed-in sample callers see it, natively and through the TEC alias. Part of the documents' format, so a
 * mapper that adds, drops or reshapes a field (in code, a module, or a patch) makes every stored document of
 * the old shape unusable at once.
 */
export async function representationShape(objects: EventObjectsService): Promise<string> {
  const record = shapeSampleRecord();
  const built = [];
  for (const dialect of DIALECTS) {
    built.push(...(await objects.fromRecords([record], inDialect(SAMPLE_CONTEXT, dialect), () => false)));
    built.push(...(await objects.fromRecords([record], inDialect(SIGNED_IN_SAMPLE, dialect), () => false)));
  }
  return built.map((b) => `${JSON.stringify(b.object)}\n${JSON.stringify(objects.jsonLdOf(b))}`).join('\n');
}
