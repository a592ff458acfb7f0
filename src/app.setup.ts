import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { BasicAuthMiddleware } from './auth/basic-auth.middleware';
import { RestExceptionFilter } from './common/errors/rest-exception.filter';
import {
  mergeRequestParameters,
  rejectUnsupportedMediaType,
  requestContextMiddleware,
} from './common/http/request-pipeline.middleware';
import { NAMESPACE } from './common/http/namespace';
import { createHttpLogger, createRootLogger, PinoNestLogger } from './common/logging/logger';
import { ClearListTotalsInterceptor } from './common/pagination/clear-list-totals.interceptor';
import { ListResponseInterceptor } from './common/pagination/list-response.interceptor';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { OpenApiDocumentService } from './discovery/openapi-document.service';

/**
 * Everything between creating the Nest application and listening: request pipeline, validation,
 * errors, documentation. `main.ts` and the e2e tests both call it, so tests run the real stack.
 * Middleware order matters: request id and log first, then the language segment, then body parsing.
 */
export function configureApp(app: NestExpressApplication): void {
  const config = app.get(AppConfig);
  const logger = createRootLogger(config.logLevel);
  app.useLogger(new PinoNestLogger(logger));
  app.flushLogs();

  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.enableCors({
    exposedHeaders: ['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages', 'Link', 'x-request-id'],
  });

  app.use(createHttpLogger(logger));
  app.use(
    requestContextMiddleware({
      prefix: config.apiPrefix,
      publicUrl: config.publicUrl,
      allowedHosts: config.allowedHosts,
    }),
  );
  app.use(rejectUnsupportedMediaType);
  app.useBodyParser('json', { limit: config.bodyLimitBytes, type: ['application/json', 'application/*+json'] });
  app.useBodyParser('urlencoded', { limit: config.bodyLimitBytes, extended: true, parameterLimit: 1000 });
  app.use(mergeRequestParameters);
  app.use(app.get(BasicAuthMiddleware).handle);

  if (config.apiPrefix) app.setGlobalPrefix(config.apiPrefix, { exclude: ['health'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new RestExceptionFilter(logger));
  app.useGlobalInterceptors(new ListResponseInterceptor(), app.get(ClearListTotalsInterceptor));

  const document = app.get(OpenApiDocumentService).initialise(app);
  SwaggerModule.setup(`${NAMESPACE}/doc/ui`, app, () => document, {
    useGlobalPrefix: true,
    raw: false,
    customSiteTitle: 'Events Calendar REST API',
  });
}
