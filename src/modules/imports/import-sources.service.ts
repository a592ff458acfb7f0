import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { fetchSource, type FetchOptions } from './fetch/source-fetch';
import { IcalImports } from './ical-imports.service';
import { emptySummary, type ImportProgress, type ImportSummary } from './import-summary';
import type { ImportKind, OverwriteRule } from './subscriptions/import-subscription.entity';
import { SourceDigest, type SourceReadHook } from './source-digest';
import { TecImports } from './tec-imports.service';
import { siteUrlOf } from './tec/tec-site';
import type { ImportOptions } from './dto/import-options.dto';

/** A source to import: an iCalendar URL or a TEC site, as the CLI or a subscription names it. */
export interface ImportSource {
  kind: ImportKind;
  url: string;
  /** A TEC site's user and application password. */
  credentials?: { user: string; password: string } | null;
  /** The source's options: status, categories, window, limit, deletions, ignore rules. */
  options?: ImportOptions;
}

export interface ImportRunOptions {
  dryRun?: boolean;
  /** Who the records are written as: a login (CLI), a user id (a subscription), else the first administrator. */
  author?: string | number | null;
  overwrite?: OverwriteRule;
  /** A subscription registered over HTTP: the SSRF guard on every request. The CLI's operator may name any address. */
  guarded: boolean;
  /** The last answer's validators (iCalendar): a 304 ends the run with nothing read. */
  conditional?: { etag: string | null; lastModified: string | null };
  progress?: ImportProgress;
  /** Ends the run (the subscription was deleted or disabled). */
  signal?: AbortSignal;
  /** Told what the run has read of its source, page by page, before it is parsed; may refuse it. */
  onSourceRead?: SourceReadHook;
}

export interface ImportOutcome {
  summary: ImportSummary;
  /** The source answered 304 to the conditional GET. */
  notModified: boolean;
  /** This answer's validators, for the next conditional GET. */
  validators: { etag: string | null; lastModified: string | null };
}

/**
 * The one way into the import services, for the CLI and the subscriptions alike: reads the source (with the
 * limits of `IMPORTS_*`, and the guard when asked), then imports it.
 */
@Injectable()
export class ImportSources {
  constructor(
    private readonly ical: IcalImports,
    private readonly tec: TecImports,
    private readonly config: AppConfig,
  ) {}

  fetchOptions(guarded: boolean): Omit<FetchOptions, 'headers' | 'conditional'> {
    const { allowPrivate, fetchTimeoutMs, maxBytes } = this.config.imports;
    return {
      guard: guarded ? { allowPrivate, allowSetting: 'IMPORTS_ALLOW_PRIVATE' } : null,
      timeoutMs: fetchTimeoutMs,
      maxBytes,
    };
  }

  /** The source as its runs name it in the ledger, reports and the ignored list: `tec:<site>`, `ical:<url>`. */
  sourceName(source: Pick<ImportSource, 'kind' | 'url'>): string {
    return source.kind === 'tec' ? `tec:${siteUrlOf(source.url)}` : `ical:${source.url}`;
  }

  async run(source: ImportSource, options: ImportRunOptions): Promise<ImportOutcome> {
    const noValidators = { etag: null, lastModified: null };
    if (source.kind === 'tec') {
      const summary = await this.tec.run(
        {
          site: source.url,
          credentials: source.credentials ?? null,
          dryRun: options.dryRun,
          options: source.options,
          author: options.author,
          overwrite: options.overwrite,
          fetch: this.fetchOptions(options.guarded),
          maxPages: this.config.imports.maxPages,
          signal: options.signal,
          onSourceRead: options.onSourceRead,
        },
        options.progress,
      );
      return { summary, notModified: false, validators: noValidators };
    }
    const answer = await fetchSource(source.url, {
      ...this.fetchOptions(options.guarded),
      conditional: options.conditional,
      signal: options.signal,
    });
    const validators = { etag: answer.headers.etag ?? null, lastModified: answer.headers['last-modified'] ?? null };
    const name = `ical:${source.url}`;
    if (answer.notModified) {
      return {
        summary: emptySummary(name, options.dryRun === true),
        notModified: true,
        validators: { ...noValidators, ...options.conditional },
      };
    }
    await options.onSourceRead?.(new SourceDigest().add(answer.sha256));
    const summary = await this.ical.run(
      {
        source: name,
        text: answer.bytes,
        options: source.options,
        dryRun: options.dryRun,
        author: options.author,
        overwrite: options.overwrite,
        signal: options.signal,
      },
      options.progress,
    );
    return { summary, notModified: false, validators };
  }
}
