import { serviceVersion } from '../operations/version';
import { Injectable } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { docText, translateDocText } from '../common/i18n/doc-text';
import { LANGUAGES, type Language } from '../common/i18n/language';
import { NAMESPACE } from '../common/http/namespace';
import { addResponseSchemas } from './response-schemas';
import { buildRouteIndex, type RouteEntry } from './route-index';

function translateTree(node: unknown, language: Language): unknown {
  if (Array.isArray(node)) return node.map((n) => translateTree(n, language));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      (key === 'description' || key === 'summary') && typeof value === 'string'
        ? translateDocText(value, language)
        : translateTree(value, language);
  }
  return out;
}

/**
 * Query and path parameters lose their `example`: Swagger UI's "Try it out" fills a parameter's box with
 * it, so every date filter of `GET /events` was sent with the example date and the list came back empty.
 * Request bodies keep theirs (a body that works as it stands is what "Try it out" should send).
 */
function withoutParameterExamples(doc: OpenAPIObject): void {
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations as Record<string, unknown>)) {
      const parameters = (operation as { parameters?: unknown } | null)?.parameters;
      if (!Array.isArray(parameters)) continue;
      for (const parameter of parameters as {
        example?: unknown;
        examples?: unknown;
        schema?: { example?: unknown };
      }[]) {
        delete parameter.example;
        delete parameter.examples;
        if (parameter.schema) delete parameter.schema.example;
      }
    }
  }
}

/**
 * Builds the OpenAPI document once from the controllers and DTOs, then a copy per language, and the
 * namespace index from each copy. Nothing here is written by hand.
 */
@Injectable()
export class OpenApiDocumentService {
  private readonly documents = new Map<Language, OpenAPIObject>();
  private readonly indexes = new Map<Language, Record<string, RouteEntry>>();
  private readonly renamed = new Map<string, Record<string, RouteEntry>>();

  initialise(app: INestApplication): OpenAPIObject {
    const config = new DocumentBuilder()
      .setTitle('Events Calendar REST API')
      .setDescription(
        docText({
          en: 'Events, venues, organizers, categories and tags of the calendar.',
          de: 'Veranstaltungen, Veranstaltungsorte, Veranstalter, Kategorien und Schlagwörter des Kalenders.',
        }),
      )
      // The service's release (package.json), as /health says; the API's own version is in its namespace (v1).
      .setVersion(serviceVersion())
      .addBasicAuth({ type: 'http', scheme: 'basic', description: 'login:application-password' }, 'basic')
      .build();
    const english = SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
    withoutParameterExamples(english);
    addResponseSchemas(english, NAMESPACE);
    for (const language of LANGUAGES) {
      const doc = language === 'en' ? english : (translateTree(english, language) as OpenAPIObject);
      this.documents.set(language, doc);
      this.indexes.set(language, buildRouteIndex(doc, NAMESPACE));
    }
    return english;
  }

  /** The document for one language, with `servers` pointing at this request's base URL. */
  document(language: Language, restBase: string): OpenAPIObject {
    const doc = this.documents.get(language);
    if (!doc) throw new Error('OpenAPI document requested before initialise()');
    return { ...doc, servers: [{ url: restBase }] };
  }

  /** The namespace's routes as `namespace` names them (ours, or the reference's through the TEC alias). */
  routesAs(namespace: string, language: Language): Record<string, RouteEntry> {
    const index = this.indexes.get(language);
    if (!index) throw new Error('namespace index requested before initialise()');
    if (namespace === NAMESPACE) return index;
    const key = `${namespace}|${language}`;
    let renamed = this.renamed.get(key);
    if (!renamed) {
      renamed = Object.fromEntries(
        Object.entries(index).map(([route, entry]) => [
          `/${namespace}${route.slice(NAMESPACE.length + 1)}`,
          { ...entry, namespace },
        ]),
      );
      this.renamed.set(key, renamed);
    }
    return renamed;
  }
}
