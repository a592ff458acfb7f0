import 'reflect-metadata';
import { Controller, Get, Inject, Module, Param, ParseIntPipe, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { Pool } from 'mysql2/promise';
import { baselinePool, contextOf, list, single, type Answer } from './routes';

/**
 * The framework's floor on the cold path (docs/performance.md): the raw baseline's routes and SQL behind
 * a bare Nest application on Express — its router, a `ParseIntPipe`, its JSON answer — and nothing else:
 * no middleware, no validation, no interceptors, no ETag. The service can at best come this close to the
 * raw baseline while it keeps NestJS and Express. Run by `npm run bench:cold`.
 */

const POOL = Symbol('pool');

@Controller('cal/events/v1/events')
class FloorController {
  constructor(@Inject(POOL) private readonly pool: Pool) {}

  @Get()
  async list(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.answer(res, await list(this.pool, new URL(req.url, 'http://floor'), contextOf(req)));
  }

  @Get(':id')
  async single(
    @Param('id', ParseIntPipe) id: number,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    return this.answer(res, await single(this.pool, id, contextOf(req)));
  }

  private answer(res: Response, [status, headers, body]: Answer): unknown {
    res.status(status).set(headers);
    return body;
  }
}

async function main(): Promise<void> {
  const pool = baselinePool(process.env.BASELINE_DATABASE_URL ?? '');
  @Module({ controllers: [FloorController], providers: [{ provide: POOL, useValue: pool }] })
  class FloorModule {}
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  app.set('etag', false);
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.once('SIGTERM', () => void app.close().then(() => pool.end()));
}

void main();
