import type { NestExpressApplication } from '@nestjs/platform-express';
import { foregroundRequests } from './common/background/foreground-requests';
import { SwaggerModule } from '@nestjs/swagger';
import type { Request, RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { DestinationStream } from 'pino';
import { BasicAuthMiddleware } from './auth/basic-auth.middleware';
import { RestExceptionFilter } from './common/errors/rest-exception.filter';
import { SiteIdentity } from './core/posts/site-identity';
import { answerClientErrorsAsJson } from './common/http/client-errors';
import { feedCompression } from './common/http/feed-compression';
import {
  MAX_FORM_PARAMETERS,
  mergeRequestParameters,
  rejectUnsupportedMediaType,
  requestContextMiddleware,
} from './common/http/request-pipeline.middleware';
import { NAMESPACE } from './common/http/namespace';
import { createHttpLogger, createRootLogger, PinoNestLogger } from './common/logging/logger';
import { ResponseBodyInterceptor } from './common/http/response-body.interceptor';
import { ResponseCache } from './common/http/response-cache/response-cache';
import { ResponseCacheInterceptor } from './common/http/response-cache/response-cache.interceptor';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { ReplicaReads } from './database/replica-reads';
import { LastModifiedInterceptor } from './core/changes/last-modified.interceptor';
import { OpenApiDocumentService } from './discovery/openapi-document.service';
import { MetricsService } from './operations/metrics.service';

/**
 * Security headers for a JSON API that also serves Swagger UI: nothing may frame it or sniff types; the
 * UI's own scripts and styles come from this origin (its styles are partly inline). Responses may be read
 * by other origins, as CORS allows.
 */
const SECURITY_HEADERS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
    },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  // HTTPS, and so HSTS, is the job of the proxy in front; sent from here it would also bind sub-domains.
  strictTransportSecurity: false,
};

/**
 * What one caller may see must not be kept by a shared cache and handed to another. `Accept` too:
 * `GET /events` answers iCalendar to calendar clients (and the response cache serves hits before routing);
 * and `Accept-Language`, which picks the language of messages when the URL names none.
 */
const privateWhenAuthenticated: RequestHandler = (req, res, next) => {
  res.vary('Authorization');
  res.vary('Accept');
  res.vary('Accept-Language');
  if (req.headers.authorization !== undefined) res.setHeader('Cache-Control', 'private, no-store');
  next();
};

/**
 * Everything between creating the Nest application and listening: request pipeline, validation,
 * errors, documentation. `main.ts` and the e2e tests both call it, so tests run the real stack.
 * Middleware order matters: request id and log first, then the language segment, then body parsing.
 */
export function configureApp(app: NestExpressApplication, options: { logDestination?: DestinationStream } = {}): void {
  const config = app.get(AppConfig);
  const logger = createRootLogger(config.logLevel, options.logDestination, config.logFormat);
  app.useLogger(new PinoNestLogger(logger));
  app.flushLogs();

  app.set('query parser', 'extended');
  // Byte-exact validators: `If-Match` on writes compares them (lists get weak ones, `ResponseCache`).
  app.set('etag', 'strong');
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.enableCors({
    exposedHeaders: ['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages', 'Link', 'x-request-id'],
  });

  const server = app.getHttpServer();
  // Slow clients (a body dripping in, headers never finished) lose their connection instead of holding it.
  server.requestTimeout = config.httpTimeouts.requestMs;
  server.headersTimeout = Math.min(config.httpTimeouts.headersMs, config.httpTimeouts.requestMs);
  answerClientErrorsAsJson(server);

  const metrics = app.get(MetricsService);
  const siteIdentity = app.get(SiteIdentity);
  app.use(foregroundRequests.count);
  app.use(metrics.recordRequests);
  app.use(helmet(SECURITY_HEADERS));
  app.use(feedCompression());
  app.use(privateWhenAuthenticated);
  app.use(createHttpLogger(logger));
  app.use(
    requestContextMiddleware({
      prefix: config.apiPrefix,
      publicUrl: config.publicUrl,
      allowedHosts: config.allowedHosts,
      tecCompat: config.tecCompat,
      globalIdHost: () => siteIdentity.host,
    }),
  );
  // Before body parsing and HTTP Basic: scrapers send a bearer token (METRICS_TOKEN), not credentials.
  app.use(metrics.serve);
  app.use(rejectUnsupportedMediaType);
  app.useBodyParser('json', { limit: config.bodyLimitBytes, type: ['application/json', 'application/*+json'] });
  app.useBodyParser('urlencoded', {
    limit: config.bodyLimitBytes,
    extended: true,
    parameterLimit: MAX_FORM_PARAMETERS,
  });
  app.use(mergeRequestParameters);
  app.use(app.get(BasicAuthMiddleware).handle);
  // After authentication (read-your-writes is per user), before the cache (whose version is read there).
  app.use(app.get(ReplicaReads).handle);
  // After authentication (answers are per caller), before the router: a hit costs no Nest pipeline.
  app.use(app.get(ResponseCache).serve);

  // Health and metrics stay at the root whatever the prefix: balancers, the image's HEALTHCHECK and scrapers
  // look there (docs/operations.md).
  if (config.apiPrefix) app.setGlobalPrefix(config.apiPrefix, { exclude: ['health/{*rest}'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new RestExceptionFilter(logger, config.bodyLimitBytes));
  app.useGlobalInterceptors(
    new ResponseBodyInterceptor(),
    app.get(ResponseCacheInterceptor),
    app.get(LastModifiedInterceptor),
  );

  const documents = app.get(OpenApiDocumentService);
  const document = documents.initialise(app);
  SwaggerModule.setup(`${NAMESPACE}/doc/ui`, app, () => document, {
    useGlobalPrefix: true,
    raw: false,
    customSiteTitle: 'Events Calendar REST API',
    // The request's language (`/de/…/doc/ui`) and its base URL with API_PREFIX, so "Try it out" calls
    // the paths this service really answers on.
    patchDocumentOnRequest: <TRequest>(req: TRequest) => {
      const { language, restBase } = req as Request;
      return documents.document(language ?? 'en', restBase ?? '');
    },
  });
}
