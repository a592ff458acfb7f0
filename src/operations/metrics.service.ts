import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BackgroundTasks } from '../common/background/background-tasks';
import { SharedRedis } from '../common/redis/shared-redis';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { LoginThrottle } from '../auth/login-throttle';
import { AppConfig } from '../config/app-config';
import { DatabaseContext } from '../database/database-context';
import { ReplicaHealth } from '../database/replica-health';
import { databasePoolStats } from './database-pool-stats';

/**
 * Prometheus metrics at `GET /metrics` (prom-client): requests by route and status, their latency,
 * the database pool, the event loop (lag among Node's default metrics), login failures and lockouts.
 * One registry per application, so several apps in one process (the tests) do not mix their counts.
 * With `METRICS_TOKEN` set, the endpoint wants `Authorization: Bearer <token>`; without it, the endpoint is
 * closed (403) unless `METRICS_OPEN=true`: route names, counts of lockouts and pool sizes are no one's business
 * on a public site.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;

  constructor(
    private readonly config: AppConfig,
    dataSource: DataSource,
    throttle: LoginThrottle,
    redis: SharedRedis,
    tasks: BackgroundTasks,
    db: DatabaseContext,
    replicas: ReplicaHealth,
  ) {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to the end of the response, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections by state (total, idle, waiting requests); SQLite has one.',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const stats = databasePoolStats(dataSource);
        for (const [state, value] of Object.entries(stats) as [string, number][]) this.set({ state }, value);
      },
    });
    new Gauge({
      name: 'redis_up',
      help: 'Whether the shared Redis (REDIS_URL) answers: 1 up, 0 down (limits per instance meanwhile); absent without REDIS_URL.',
      registers: [this.registry],
      collect() {
        this.reset();
        if (redis.configured) this.set(redis.available ? 1 : 0);
      },
    });
    new Gauge({
      name: 'background_task_last_success_timestamp_seconds',
      help: 'When each background task (publisher, janitor, webhook worker) last finished a round well, Unix seconds; 0: not yet.',
      labelNames: ['task'],
      registers: [this.registry],
      collect() {
        for (const [task, state] of tasks.all) this.set({ task }, (state.lastSuccessMs ?? 0) / 1000);
      },
    });
    new Counter({
      name: 'background_task_failures_total',
      help: 'Background task rounds that failed (each is logged at error with the task name).',
      labelNames: ['task'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [task, state] of tasks.all) this.inc({ task }, state.failures);
      },
    });
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far the read replicas are behind the primary (the largest seen lately); absent without DATABASE_READ_URLS or while unknown.',
      registers: [this.registry],
      collect() {
        this.reset();
        const lag = replicas.lagSeconds;
        if (db.hasReplicas && lag !== null) this.set(lag);
      },
    });
    new Gauge({
      name: 'db_replicas_in_use',
      help: 'Whether reads go to the replicas now: 1 yes, 0 no (down or more than REPLICA_MAX_LAG_SECONDS behind); absent without replicas.',
      registers: [this.registry],
      collect() {
        this.reset();
        if (db.hasReplicas) this.set(replicas.available ? 1 : 0);
      },
    });
    new Counter({
      name: 'auth_login_failures_total',
      help: 'HTTP Basic logins refused (unknown login or wrong password).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(throttle.counts.failures);
      },
    });
    new Counter({
      name: 'auth_login_lockouts_total',
      help: 'Logins locked after repeated failures (per login and address).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(throttle.counts.lockouts);
      },
    });
  }

  /** Counts every answered request under its route template (`/cal/events/v1/events/:id`), never its URL. */
  readonly recordRequests: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = req.route
        ? `${req.baseUrl}${String((req.route as { path: unknown }).path)}`
        : (req.cachedRoute ?? 'unmatched');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      this.requests.inc(labels);
      this.durations.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };

  /** `GET /metrics`, before authentication and body parsing (a bearer token is not Basic credentials). */
  readonly serve: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    req.cachedRoute = '/metrics';
    if (!this.config.metricsToken && !this.config.metricsOpen) {
      res.status(403).json({
        code: 'rest_forbidden',
        message: 'The metrics are closed: set METRICS_TOKEN (scrapers send it as a bearer token) or METRICS_OPEN=true.',
        data: { status: 403 },
      });
      return;
    }
    if (!this.authorised(req.headers.authorization)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer realm="metrics"')
        .json({
          code: 'rest_not_logged_in',
          message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>.',
          data: { status: 401 },
        });
      return;
    }
    this.registry.metrics().then(
      (body) => res.status(200).set('Content-Type', this.registry.contentType).send(body),
      (error: unknown) => next(error),
    );
  };

  private authorised(header: string | undefined): boolean {
    const token = this.config.metricsToken;
    if (!token) return true;
    const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
