import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { AppConfig } from './config/app-config';

const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Stops in the order that loses no request: refuse new connections and let running requests finish
 * (up to 10 s), then close the application (database pool last). Nest's own shutdown hooks would close
 * the pool while requests are still running.
 */
function closeGracefully(app: NestExpressApplication): void {
  let closing = false;
  const stop = (signal: string): void => {
    if (closing) return;
    closing = true;
    Logger.log(`${signal} received; draining requests`, 'Shutdown');
    const server = app.getHttpServer();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS).unref());
    void Promise.race([drained, timeout])
      .then(() => app.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  closeGracefully(app);
}

void bootstrap();
